#!/usr/bin/python3
"""test/sqlfuzz/sqlfuzz.py -- SQL-level fuzzing of bloomset (part B of run.sh),
and the analysis of a sqlsmith run (part A).

  sqlfuzz.py gen --dsn DSN --seed S --statements N --log SERVER_LOG
      builds value and filter tables, reads the extension's functions,
      operators, aggregates and casts from pg_depend, and runs N statements
      on them: random type-directed calls (nested, grouped, windowed,
      prepared, writes, mutated text/binary filters) and oracle checks
      (no false negatives, lossless round trips, parallel = serial,
      fast_hash on = off, generic plan = custom plan, window = running set,
      NULL sizing arguments alike).  Every error's SQLSTATE must be outside
      class XX; a lost connection / "terminated by signal" is a crash.

  sqlfuzz.py smith-report --queries FILE --log SERVER_LOG --app sqlsmith::dut
      counts sqlsmith's statements (and those touching bloomset objects),
      errors by SQLSTATE class, XX errors and crashes from the server log.

Both print "RESULT passed=P failed=F" as their last line; run.sh sums them.
"""
import argparse
import collections
import io
import math
import os
import random
import re
import signal
import sys
import time

LOG_ERR = re.compile(r'\[(\d+)\] ([0-9A-Z]{5}) (.*?): (ERROR|FATAL|PANIC):\s+(.*)')
CRASH_PID = re.compile(r'\(PID (\d+)\) was terminated by (?:signal|exception)')
LOG_CRASH = re.compile(r'terminated by signal|was terminated by exception|PANIC:|'
                       r'terminating any other active server processes')

# Failures that exist in the C code right now and are being fixed (issue 8):
# reported with their number, still counted as failures.
KNOWN = [
    ('known#1 (likely) lookahead SIGSEGV: >= 4 MiB filter probed over a table scan', 'crash',
     r'FROM wide|FROM v_\w+ WHERE .*@>|FROM lt'),
    ('known#2 XX001 invalid n-gram length (family ngram:0/ngram:9/ngram:)', 'XX', r'n-gram length'),
    ('known#3 bloom_ngram_agg with a per-row n: false negatives', 'wrong', r'ngram_varying_n'),
    ('known#4 loops not interruptible (cancelled more than 1 s after statement_timeout)', 'wrong',
     r'cancel_within_1s'),
    ('finding#1 || / *_add on char(n) resolve to the text overload (text_ops), @> uses bpchar_ops: 42804', 'wrong',
     r'(add_then_probe|remove_member_accepted).*v_char|v_char.*(add_then_probe|remove_member_accepted)'),
    ('finding#2 text probes of an enum filter: scalar forms read a label, batch forms 42804 (plan-dependent)',
     'wrong', r'generic_equals_custom.*family=enum'),
    ('known#5 NULL sizing arguments treated differently by the aggregates', 'wrong', r'null_sizing'),
    ('finding#6 bloom_index_put with NULL or short arguments: SIGSEGV', 'crash', r'bloom_index_put'),
    ('finding#7 the aggregate bloom_index_match with NULL arguments: SIGSEGV', 'crash', r'bloom_index_match\b'),
    ('finding#8 the filter index\'s helpers: XX001/XX000 for bytes a user passes', 'XX',
     r'invalid bloom index row|bloom_index_rows: cursor'),
    ('finding#9 a regtype naming no type: XX000 cache lookup failed (Parquet functions)', 'XX',
     r'cache lookup failed for type'),
    ('finding#10 a filter index of one segment without its slot map: no ids instead of XX001', 'wrong',
     r'DELETE FROM fz_idx_broken WHERE blk = -\w+ AND seg = \w+: \w+ keys answered wrongly'),
]


def classify(kind, text):
    for name, k, pat in KNOWN:
        if k == kind and (pat is None or re.search(pat, text)):
            return name
    return 'NEW'


def lit(s):
    return "'" + s.replace("'", "''") + "'"


def sqlclass(code):
    return code[:2] if code else '??'


# ---------------------------------------------------------------------------
# value families: name -> (column type, expression over g, extra literals)
# ---------------------------------------------------------------------------
FAMILIES = {
    'int2': ('int2', "(g % 30000 - 15000)::int2", ["-32768", "32767", "0"]),
    'int4': ('int4', "g * 7919 - 100000", ["-2147483648", "2147483647", "0"]),
    'int8': ('int8', "g::int8 * 1000000007", ["-9223372036854775808", "9223372036854775807", "0"]),
    'numeric': ('numeric', "g / 7.0", ["'NaN'", "1e-300", "'Infinity'", "'-Infinity'", "1.000", "-0.0", "1e300",
                                      "123456789012345678901234567890.123"]),
    'float4': ('float4', "(g / 3.0)::float4", ["'NaN'", "'Infinity'", "'-Infinity'", "'-0'", "1e-38"]),
    'float8': ('float8', "g * 1.5e10 + 0.25", ["'NaN'", "'Infinity'", "'-0'", "5e-324", "1.7976931348623157e308"]),
    'text': ('text', "md5(g::text) || repeat(chr(233), g % 3) || CASE WHEN g % 11 = 0 THEN '%_\\' ELSE '' END",
             ["''", "repeat('x', 3000)", "E'\\\\'", "'日本語テキスト'", "'a'", "'ab'"]),
    'varchar': ('varchar(60)', "left(md5((g * 3)::text), g % 40) || chr(1 + g % 120)", ["''", "repeat('y', 60)"]),
    'bytea': ('bytea', "decode(md5(g::text), 'hex')", ["'\\x'", "'\\x00'", "decode(repeat('ff', 2000), 'hex')"]),
    'uuid': ('uuid', "md5(g::text)::uuid", ["'00000000-0000-0000-0000-000000000000'"]),
    'date': ('date', "date '2000-01-01' + g * 37", ["'infinity'", "'-infinity'", "'4713-01-01 BC'"]),
    'timestamp': ('timestamp', "timestamp '2000-01-01' + g * interval '1 hour 7 seconds'",
                  ["'infinity'", "'-infinity'", "'294276-12-31 23:59:59'"]),
    'timestamptz': ('timestamptz', "timestamptz '2000-01-01 00:00+00' + g * interval '1 minute 1 microsecond'",
                    ["'infinity'", "'-infinity'"]),
    'bool': ('bool', "g % 2 = 0", ["true", "false"]),
    'jsonb': ('jsonb', "jsonb_build_object('k', g, 'v', md5(g::text), 'a', jsonb_build_array(g, null))",
              ["'null'", "'[]'", "'{}'", "'1.0'", "'\"x\"'"]),
    'int4arr': ('int4[]', "ARRAY[g, -g, g % 5]", ["'{}'", "'{NULL}'", "'{{1,2},{3,4}}'", "'[0:1]={5,6}'",
                                                  "ARRAY[1, NULL, 3]"]),
    'textarr': ('text[]', "ARRAY[md5(g::text), '']", ["'{}'", "'{NULL,\"\"}'", "'{{a,b},{c,NULL}}'"]),
    'int4range': ('int4range', "int4range(g, g + 1 + g % 9)", ["'empty'", "'(,)'", "'[1,1]'", "'[-2147483648,2147483647)'"]),
    'enum': ('mood', "(ARRAY['sad', 'ok', 'happy', 'very happy'])[1 + g % 4]::mood", []),
    'domain': ('posint', "g", ["2147483647", "1"]),
    'ci': ('text COLLATE ci', "CASE WHEN g % 2 = 0 THEN upper(md5(g::text)) ELSE md5(g::text) END",
           ["'ABC'", "'straße'", "''"]),
    'words': ('text', "'svc' || g || ' timeout=' || left(md5(g::text), 6) || ' user-' || (g % 13) || "
                      "CASE WHEN g % 5 = 0 THEN ' Ünïcödé.x' ELSE '' END",
              ["''", "' '", "'a,b;c'", "'ÄÖÜ äöü'"]),
    'comp': ('pair', "ROW(g, md5(g::text))::pair", ["ROW(NULL, NULL)::pair"]),
    'multirange': ('int4multirange', "int4multirange(int4range(g, g + 3), int4range(g + 10, g + 12))",
                   ["'{}'", "'{(,)}'"]),
    'interval': ('interval', "g * interval '1 day 3 hours'", ["'0'", "'1 month'", "'30 days'", "'-178000000 years'"]),
    'inet': ('inet', "('10.0.' || (g % 256) || '.' || (g % 7) || '/' || (24 + g % 9))::inet",
             ["'::1'", "'0.0.0.0/0'", "'10.0.0.1/32'"]),
    'name': ('name', "md5(g::text)::name", ["''", "repeat('n', 63)"]),
    'time': ('time', "time '00:00' + g * interval '17 seconds'", ["'24:00'", "'00:00'"]),
    'timetz': ('timetz', "(time '00:00' + g * interval '17 seconds')::timetz", ["'12:00+14'", "'12:00-12'"]),
    'char': ('char(5)', "left(md5(g::text), g % 6)", ["''", "'a    '"]),
    'macaddr': ('macaddr', "('08:00:2b:01:02:' || lpad(to_hex(g % 256), 2, '0'))::macaddr", []),
}
# families whose values have a Parquet encoding, and the element type a
# Parquet filter of them is created for (a domain: its base type)
PARQUET_FAMS = {'int2': 'int2', 'int4': 'int4', 'int8': 'int8', 'float4': 'float4', 'float8': 'float8',
                'text': 'text', 'varchar': 'varchar', 'bytea': 'bytea', 'uuid': 'uuid', 'date': 'date',
                'timestamp': 'timestamp', 'timestamptz': 'timestamptz', 'domain': 'int4'}
ARRAY_FAMS = {'int4arr', 'textarr'}
TEXT_FAMS = {'text', 'varchar', 'ci', 'words'}
NROWS = 240

CAPS = ['1', '10', '100', '1000', '5000', '100000']
BAD_CAPS = ['0', '-1', '1099511627776', '1099511627777', '9223372036854775807', '-9223372036854775808',
            '2147483648', 'NULL']
FPRS = ['0.5', '0.3', '0.1', '0.01', '0.001', '0.0001', '1e-6']
BAD_FPRS = ['0', '1', '-0.01', "'NaN'", "'Infinity'", '0.5000001', '1e-300', '5e-324', 'NULL', '2']
SIZES = ['32', '64', '256', '4096', '65536', '1000000']
BAD_SIZES = ['0', '-1', '31', '33', '100', '268435457', '2147483647', '-2147483648', 'NULL']
HASHES = ['1', '2', '3', '7', '8', '13', '32']
BAD_HASHES = ['0', '-1', '33', '2147483647', 'NULL']
SEEDS = ['0', '1', '-1', '42', '9223372036854775807', '-9223372036854775808', '123456789']
FAMS_TEXT = ['ngram:0', 'ngram:9', 'ngram:', 'ngram:-3', 'ngram:3', 'ngram:1', 'ngram:8', 'ngram:2147483648',
             'token', 'tokenizer', 'integer_ops', 'text_ops', '', 'enum:mood', 'enum:nosuch', 'array(integer_ops)',
             'x' * 31, 'x' * 40, 'float_ops', 'ngram:3 ', 'token\\x']


# the role every generated statement runs as after the setup: the catalog is
# read through its EXECUTE privileges (what a non-superuser can call), and a
# hostile call cannot reach what only a superuser may write
ROLE = 'sqlfuzz_user'
# the skip index access method the bloomskip oracle exercises (another name,
# say brin, only to try the oracle itself on a build without bloomskip)
SKIP_AM = os.environ.get('SQLFUZZ_SKIP_AM', 'bloomskip')
INTS = ['0', '1', '-1', '2', '3', '7', '8', '31', '32', '33', '64', '256', '4096', '65536', '2147483647',
        '-2147483648']
BIGINTS = ['0', '1', '-1', '42', '2147483647', '2147483648', '4294967296', '9223372036854775807',
           '-9223372036854775808']
FLOATS_EXTREME = ["'NaN'", "'Infinity'", "'-Infinity'", "'-0'", '1e308', '5e-324', '0', '-1', '1', '2']
# the types a regtype argument names: element types a filter accepts, and
# ones it must refuse (pseudo-types, filters themselves, composites, arrays)
REGTYPES = ['int4', 'int2', 'int8', 'text', 'varchar', 'bytea', 'uuid', 'date', 'timestamp', 'timestamptz',
            'float4', 'float8', 'numeric', 'bool', 'mood', 'posint', 'pair', 'int4[]', 'bloom', 'counting_bloom',
            'void', 'internal', 'cstring', 'anyelement', 'record', 'unknown', '"char"', 'name', 'jsonb', 'point',
            'int4range', 'char', 'time', 'interval', 'fixed_len_byte_array']
# query texts for arguments that take one (the filter index's sources: two
# columns, an id and a filter): right ones, wrong column counts and types,
# errors, several statements, NULL ids and filters, duplicates, extremes
SOURCES = ["SELECT id::bigint, f FROM fz_pool_chunks", "SELECT id::bigint, f FROM fz_pool_chunks WHERE id % 2 = 0",
           "SELECT id + 1000, f FROM fz_pool_chunks", "SELECT id, f FROM fpool", "SELECT 1", "SELECT 1, 2, 3",
           "SELECT f, id FROM fz_pool_chunks", "SELECT id::bigint, cf FROM fpool", "SELECT id::bigint, sf FROM fpool",
           "SELECT id::text, f FROM fz_pool_chunks", "SELECT NULL::bigint, f FROM fz_pool_chunks",
           "SELECT id::bigint, NULL::bloom FROM fz_pool_chunks", "SELECT 1::bigint, f FROM fz_pool_chunks",
           "SELECT 9223372036854775807, f FROM fz_pool_chunks LIMIT 1",
           "SELECT -9223372036854775808, f FROM fz_pool_chunks LIMIT 1", "SELECT 1/0, f FROM fz_pool_chunks",
           "SELEC id, f FROM fz_pool_chunks", "", " ", ";", "SELECT id::bigint, f FROM fz_pool_chunks; SELECT 1",
           "SELECT id::bigint, f FROM no_such_table", "VALUES (1::bigint, bloom_empty(100, 0.01))",
           "SELECT g::bigint, bloom_empty(100, 0.01) FROM generate_series(1, 3000) g",
           "SELECT id::bigint, f FROM fz_pool_chunks FOR UPDATE", "TABLE fz_pool_chunks",
           "SELECT id::bigint, bloom_agg(x, 100, 0.01) FROM v_text GROUP BY id",
           "SELECT id::bigint, f FROM fz_pool_chunks2", "SELECT id::bigint, f::text FROM fz_pool_chunks",
           "SELECT id::bigint, f::text::bloom FROM fz_pool_chunks ORDER BY id DESC", "SELECT $1",
           "SELECT id::bigint, f FROM fz_pool_chunks WHERE false", "SELECT id::int2, f FROM fz_pool_chunks",
           "SELECT id::numeric + 0.5, f FROM fz_pool_chunks", "SELECT * FROM fz_pool_idx",
           "SELECT id::bigint, bloom_fold(f, 2) FROM fz_pool_chunks", "SELECT pg_sleep(0.01)::text::bigint, NULL::bloom",
           "SELECT id::bigint, f FROM fz_pool_chunks UNION ALL SELECT id::bigint, f FROM fz_pool_chunks",
           "NULL"]
# names for arguments that name a table to create (bloom_index_create)
NEW_NAMES = ['fz_rnd_a', 'fz_rnd_b', 'public.fz_rnd_c', 'v_int4', 'fpool', 'fz_pool_idx', '', 'pg_catalog.fz_x', 'a"b',
             'x' * 70, 'fz rnd', 'FZ_RND_A', 'information_schema.fz_y', 'pg_temp.fz_tmp', 'fz_rnd_a.b.c',
             'nosuchschema.fz', '"fz_rnd_a"', 'fz_rnd_a;', 'NULL']
# queries a refcursor argument's cursor runs
CURSOR_QUERIES = ['SELECT * FROM fz_pool_idx ORDER BY seg, blk', 'SELECT id::bigint, f FROM fz_pool_chunks', 'SELECT 1',
                  'SELECT * FROM fz_pool_idx2', 'SELECT id, f, cf FROM fpool', 'SELECT NULL::int, NULL::bytea',
                  'SELECT * FROM fz_pool_idx WHERE false']


class Stats:
    def __init__(self):
        self.bloom_statements = 0
        self.other_statements = 0
        self.errors = collections.Counter()       # SQLSTATE class -> n
        self.codes = collections.Counter()        # full SQLSTATE -> n
        self.timeouts = 0
        self.crashes = 0
        self.xx = 0
        self.xx_expected = 0     # XX errors an oracle asked for (corrupted rows it wrote)
        self.wrong = 0
        self.collateral = 0      # connections reset by another session's crash
        self.batches = 0         # round trips that ran several random calls
        self.batched_statements = 0
        self.batches_replayed = 0
        self.passed = collections.Counter()       # oracle -> n
        self.failed = collections.Counter()
        self.skipped = collections.Counter()      # oracle not evaluated (expected error)
        self.failures = []                        # (kind, oracle, detail, sql), a sample of each group
        self.failures_dropped = collections.Counter()   # group -> failures beyond the sample
        self.nfailures = 0


class Fuzzer:
    def __init__(self, args):
        import psycopg2
        self.pg = psycopg2
        self.args = args
        self.dsn = args.dsn
        self.rng = random.Random(args.seed)
        self.st = Stats()
        self.log_path = args.log
        self.log_pos = self._log_size()
        self.conn = None
        self.printed = collections.Counter()
        self.slow = []
        self.durations = []
        self.my_pids = set()
        self.role_set = False
        self.queue = []
        self.connect()
        self.prep_n = 0

    # -- connection, execution, error accounting ---------------------------
    def _log_size(self):
        try:
            with open(self.log_path, 'rb') as f:
                f.seek(0, 2)
                return f.tell()
        except OSError:
            return 0

    def _log_new(self):
        """the crash lines the server log got since the last call (read line by line)"""
        out = []
        try:
            with open(self.log_path, 'rb') as f:
                f.seek(self.log_pos)
                for raw in f:
                    if b'terminated' in raw or b'PANIC' in raw:
                        out.append(raw.decode('utf-8', 'replace'))
                self.log_pos = f.tell()
        except OSError:
            pass
        return ''.join(out)

    def connect(self, wait=60):
        deadline = time.time() + wait
        while True:
            try:
                self.conn = self.pg.connect(self.dsn)
                break
            except self.pg.OperationalError:
                if time.time() > deadline:
                    raise
                time.sleep(0.5)
        self.conn.autocommit = True
        self.cur = self.conn.cursor()
        self.cur.execute("SET statement_timeout = '%ds'" % self.args.timeout)
        self.cur.execute("SET client_min_messages = error")
        self.cur.execute("SET application_name = 'sqlfuzz'")
        self.cur.execute("SET extra_float_digits = 3")
        self.cur.execute("SELECT pg_backend_pid()")
        self.my_pids.add(self.cur.fetchone()[0])
        if self.role_set:
            self.cur.execute("SET ROLE %s" % ROLE)
        self.settings = {}
        self.batch_fn_ready = False     # pg_temp goes with the session

    def fail(self, kind, oracle, detail, sql):
        st = self.st
        st.failed[oracle] += 1
        if kind == 'XX':
            st.xx += 1
        elif kind == 'crash':
            st.crashes += 1
        elif kind == 'wrong':
            st.wrong += 1
        sig = (kind, oracle, re.sub(r'\d+', 'N', detail)[:120])
        self.printed[sig] += 1
        st.nfailures += 1
        if self.printed[sig] <= 200:
            # a long run keeps a sample of each group (for its shortest example), and counts all
            st.failures.append((kind, oracle, detail, sql))
        else:
            st.failures_dropped[failure_group(kind, oracle, detail, sql)] += 1
        if self.printed[sig] <= 3:
            print('FAIL [%s] %s: %s\n  %s' % (kind, oracle, detail, sql[:2000]), flush=True)

    def run(self, sql, params=None, bloom=True, oracle='fuzz', copy_in=None, copy_out=None):
        """Execute; return (rows or None, sqlstate or None)."""
        if bloom:
            self.st.bloom_statements += 1
        else:
            self.st.other_statements += 1
        t0 = time.time()
        try:
            if copy_out is not None:
                self.cur.copy_expert(sql, copy_out)
                return [], None
            if copy_in is not None:
                self.cur.copy_expert(sql, copy_in)
                return [], None
            t0 = time.time()
            self.cur.execute(sql, params)
            rows = self.cur.fetchall() if self.cur.description else []
            dt = time.time() - t0
            self.durations.append(dt)
            if dt > 0.05:
                self.note_slow(dt, sql[:300])
            return rows, None
        except self.pg.Error as e:
            code = e.pgcode
            dt = time.time() - t0
            self.durations.append(dt)
            if dt > 0.05:
                self.note_slow(dt, 'ERROR %s: %s' % (code, sql[:300]))
            if code is None or self.conn.closed:
                self.lost_connection(sql, str(e))
                return None, '08006'
            st = self.st
            st.errors[sqlclass(code)] += 1
            st.codes[code] += 1
            if code == '57014':
                st.timeouts += 1
            if code.startswith('XX'):
                self.fail('XX', oracle, '%s %s' % (code, (e.pgerror or '').strip().splitlines()[0]), sql)
            return None, code

    def note_slow(self, dt, text):
        """the slowest statements, for the verbose report (bounded for long runs)"""
        self.slow.append((dt, text))
        if len(self.slow) > 2000:
            self.slow = sorted(self.slow, reverse=True)[:100]

    def lost_connection(self, sql, msg):
        """the connection broke: a crash of this session's backend (or of a parallel worker) is a
        failure of the statement; another session's crash only resets this connection"""
        time.sleep(1.0)
        lines = self._log_new().splitlines()
        mine, others = [], []
        for l in lines:
            m = CRASH_PID.search(l)
            if m:
                (mine if int(m.group(1)) in self.my_pids or 'background worker' in l else others).append(l.strip())
        if mine or not others:
            detail = mine[0] if mine else ('connection lost: ' + msg.strip().splitlines()[0]
                                           if msg.strip() else 'connection lost')
            self.fail('crash', 'no_crash', detail, sql)
        else:
            self.st.collateral += 1
        try:
            self.conn.close()
        except Exception:
            pass
        self.connect(wait=120)
        self.reset_settings()

    def set(self, name, value):
        self.run("SET %s = %s" % (name, value), bloom=False)
        self.settings[name] = value

    def set_many(self, pairs):
        """several settings in one round trip"""
        self.run('; '.join("SET %s = %s" % kv for kv in pairs), bloom=False)
        self.settings.update(pairs)

    # -- several statements per round trip ------------------------------------
    # Under load most of a cheap statement's time is the round trip (the
    # backend waiting for a CPU to answer, then the client), so the random
    # calls of the catalog (functions, operators, casts, aggregates, probes
    # over scans; not the volatile ones, which run alone) are sent BATCH at a
    # time to a PL/pgSQL function that runs each in a subtransaction of its
    # own, reads its result as text (so the output functions run) and returns
    # each one's SQLSTATE and message.  A share of them still runs alone at
    # top level (plans, protocol and errors as a client meets them).  A batch
    # that cannot finish (statement_timeout, a lost connection) is run again
    # one statement at a time, so that every error and crash is the
    # statement's own.  Measured here (2 cores, load 12): 1,500 random calls
    # ran at 392-411 statements/s one per round trip and 358-411/s eight per
    # round trip -- the server's work per statement, not the round trip, is
    # what costs -- so batches are off unless asked for (--batch N,
    # SQLFUZZ_BATCH=N in run.sh).
    BATCH = 1
    BATCH_FN = """CREATE OR REPLACE FUNCTION pg_temp.sqlfuzz_batch(q text[], OUT n int, OUT state text, OUT msg text)
        RETURNS SETOF record LANGUAGE plpgsql AS $f$
        DECLARE d text;
        BEGIN
          FOR k IN 1 .. coalesce(array_length(q, 1), 0) LOOP
            n := k; state := NULL; msg := NULL;
            BEGIN
              EXECUTE 'SELECT md5(string_agg(t::text, '','')) FROM (' || q[k] || ') t' INTO d;
            EXCEPTION WHEN OTHERS THEN
              GET STACKED DIAGNOSTICS state = RETURNED_SQLSTATE, msg = MESSAGE_TEXT;
            END;
            RETURN NEXT;
          END LOOP;
        END $f$"""

    def submit(self, sql):
        """run a random call now, or queue it for the next batch"""
        if self.args.batch <= 1 or self.rng.random() < 0.3:
            self.run(sql)
            return
        self.queue.append(sql)
        if len(self.queue) >= self.args.batch:
            self.flush()

    def flush(self):
        q, self.queue = self.queue, []
        if len(q) <= 1:
            for sql in q:
                self.run(sql)
            return
        if not self.batch_fn_ready:
            self.run(self.BATCH_FN, bloom=False)
            self.batch_fn_ready = True
        t0 = time.time()
        try:
            self.cur.execute('SELECT n, state, msg FROM pg_temp.sqlfuzz_batch(%s)', (q,))
            rows = self.cur.fetchall()
        except self.pg.Error as e:
            if e.pgcode is None or self.conn.closed:
                # the crash line names the batch; the replay below names the statement
                self.lost_connection('(a batch of %d statements; replayed one by one below) %s'
                                     % (len(q), ' ;\n  '.join(q)), str(e))
            self.st.batches_replayed += 1
            for sql in q:
                self.run(sql)
            return
        self.durations.append(time.time() - t0)
        self.st.batches += 1
        self.st.batched_statements += len(q)
        for n, code, msg in rows:
            self.st.bloom_statements += 1
            if code is None:
                continue
            self.st.errors[sqlclass(code)] += 1
            self.st.codes[code] += 1
            if code.startswith('XX'):
                # the same message as a statement run alone gets (the groups of the summary)
                self.fail('XX', 'fuzz', '%s ERROR:  %s' % (code, (msg or '').strip().splitlines()[0] if msg else ''),
                          q[n - 1])

    def reset_settings(self):
        self.settings = {}

    def check(self, oracle, ok, detail, sql):
        if ok:
            self.st.passed[oracle] += 1
        else:
            self.fail('wrong', oracle, detail, sql)

    # -- setup -------------------------------------------------------------
    def setup(self):
        r = self.run
        if self.args.ext_version:
            # an older version's SQL objects over this build's library (say 1.2's filter-index helpers)
            r("CREATE EXTENSION IF NOT EXISTS bloomset VERSION %s" % lit(self.args.ext_version), bloom=False)
        else:
            r("CREATE EXTENSION IF NOT EXISTS bloomset", bloom=False)
        rows, _ = r("SELECT extversion FROM pg_extension WHERE extname = 'bloomset'", bloom=False)
        print('extension version %s' % (rows[0][0] if rows else '?'), flush=True)
        self.create_role()
        r("CREATE COLLATION IF NOT EXISTS ci (provider = icu, locale = 'und-u-ks-level2', deterministic = false)",
          bloom=False)
        r("DO $$BEGIN CREATE TYPE mood AS ENUM ('sad', 'ok', 'happy', 'very happy'); "
          "EXCEPTION WHEN duplicate_object THEN NULL; END$$", bloom=False)
        r("DO $$BEGIN CREATE DOMAIN posint AS int CHECK (VALUE > 0); "
          "EXCEPTION WHEN duplicate_object THEN NULL; END$$", bloom=False)
        r("DO $$BEGIN CREATE TYPE pair AS (a int, b text); "
          "EXCEPTION WHEN duplicate_object THEN NULL; END$$", bloom=False)
        for fam, (typ, expr, extra) in FAMILIES.items():
            r("DROP TABLE IF EXISTS v_%s" % fam, bloom=False)
            r("CREATE TABLE v_%s (id int, x %s)" % (fam, typ), bloom=False)
            r("INSERT INTO v_%s SELECT g, %s FROM generate_series(1, %d) g" % (fam, expr, NROWS), bloom=False)
            for i, e in enumerate(extra):
                r("INSERT INTO v_%s VALUES (%d, %s)" % (fam, NROWS + 1 + i, e), bloom=False)
            r("INSERT INTO v_%s SELECT g, NULL FROM generate_series(%d, %d) g"
              % (fam, NROWS + 50, NROWS + 53), bloom=False)
            # a few duplicates of earlier rows
            r("INSERT INTO v_%s SELECT id + 1000, x FROM v_%s WHERE id %% 60 = 0" % (fam, fam), bloom=False)
            r("ANALYZE v_%s" % fam, bloom=False)
        r("DROP TABLE IF EXISTS big", bloom=False)
        r("CREATE TABLE big AS SELECT g AS id, g %% 5 AS grp, (g * 31)::int4 AS i4, g::int8 * 1000003 AS i8, "
          "md5(g::text) AS t, 'svc' || (g %% 97) || ' code=' || left(md5(g::text), 4) AS w, g / 3.0 AS n, "
          "md5(g::text)::uuid AS u FROM generate_series(1, %d) g" % self.args.big_rows, bloom=False)
        r("ANALYZE big", bloom=False)
        # rows with NULLs before variable-width columns, for probes over scans
        r("DROP TABLE IF EXISTS wide", bloom=False)
        r("CREATE TABLE wide (a int, s text, b bytea, v varchar(40), n int, t2 text)", bloom=False)
        r("INSERT INTO wide SELECT CASE WHEN g %% 3 = 0 THEN NULL ELSE g END, CASE WHEN g %% 17 = 0 THEN NULL "
          "ELSE left(md5(g::text), g %% 33) END, decode(left(md5(g::text), 2 * (g %% 17)), 'hex'), "
          "left(md5((g + 1)::text), g %% 40), g, CASE WHEN g %% 5 = 0 THEN repeat('z', 3000) || g END "
          "FROM generate_series(1, %d) g" % self.args.wide_rows, bloom=False)
        r("INSERT INTO wide VALUES (1, 'abc', '\\x01', 'a', 0, NULL), (NULL, 'ab', '\\x00000008000000', 'b', 8, "
          "NULL), (NULL, NULL, NULL, NULL, NULL, NULL), (NULL, '', '\\x', '', NULL, '')", bloom=False)
        r("ANALYZE wide", bloom=False)
        r("DROP TABLE IF EXISTS ftab", bloom=False)
        r("CREATE TABLE ftab (id int PRIMARY KEY, fam text, f bloom, cf counting_bloom, sf scalable_bloom)",
          bloom=False)
        r("DROP TABLE IF EXISTS rt", bloom=False)
        r("CREATE TABLE rt (id int, f bloom, cf counting_bloom, sf scalable_bloom)", bloom=False)
        r("DROP TABLE IF EXISTS rt2", bloom=False)
        r("CREATE TABLE rt2 (id int, f bloom, cf counting_bloom, sf scalable_bloom)", bloom=False)
        # pools of filters: id, kind, family
        r("DROP TABLE IF EXISTS fpool CASCADE", bloom=False)   # and the views over it (a second run)
        r("CREATE TABLE fpool (id serial, fam text, f bloom, cf counting_bloom, sf scalable_bloom)", bloom=False)
        builds = []
        for fam in FAMILIES:
            builds.append((fam, "bloom_agg(x)", "counting_bloom_agg(x, 300, 0.01)", "scalable_bloom_agg(x)"))
            builds.append((fam, "bloom_agg(x, 50, 0.3)", "counting_bloom_agg(x, 10, 0.5)",
                           "scalable_bloom_agg(x, 5, 0.1)"))
            builds.append((fam, "bloom_agg(x, 64, 5, -7)", "counting_bloom_agg(x, 2000, 0.001)",
                           "scalable_bloom_agg(x, 1000, 0.001)"))
        for fam in TEXT_FAMS:
            for n in (1, 2, 3, 5, 8):
                builds.append(('ngram:%d' % n, "bloom_ngram_agg(x, %d)" % n, "NULL", "NULL"))
            builds.append(('token', "bloom_token_agg(x)", "NULL", "NULL"))
        for fam, fb, cb, sb in builds:
            src = fam if fam in FAMILIES else None
            if src is None:
                src = self.rng.choice(sorted(TEXT_FAMS))
            r("INSERT INTO fpool (fam, f, cf, sf) SELECT %s, %s, %s, %s FROM v_%s"
              % (lit(fam), fb, cb, sb, src), bloom=True, oracle='setup')
        r("INSERT INTO fpool (fam, f, cf, sf) VALUES ('empty', bloom_empty(100), counting_bloom_empty(100), "
          "scalable_bloom_empty()), ('empty', bloom_empty(64, 3, 1), counting_bloom_empty(1, 0.5), "
          "scalable_bloom_empty(1, 0.5, 2)), (NULL, NULL, NULL, NULL)", oracle='setup')
        r("INSERT INTO fpool (fam, f) VALUES ('text', bloom_empty(4000000) || 'x'::text), "
          "('bytea', bloom_empty(4000000) || '\\x01'::bytea), ('varchar', bloom_empty(4000000) || 'x'::varchar)",
          oracle='setup')
        r("ANALYZE fpool", bloom=False)
        rows, _ = r("SELECT count(*) FROM fpool", bloom=False)
        self.npool = rows[0][0] if rows else 1
        # text and binary forms of small filters, for mutation
        rows, _ = r("SELECT f::text, bloom_to_bytea(f), cf::text, sf::text, fam FROM fpool "
                    "WHERE f IS NOT NULL AND (bloom_info(f)).bytes < 4096", oracle='setup')
        self.texts_by_fam = collections.defaultdict(list)
        for row in rows or []:
            self.texts_by_fam[row[4]].append(row[0])
        self.texts = {'bloom': [], 'counting_bloom': [], 'scalable_bloom': []}
        self.binaries = []
        for ft, fb, ct, stt, _ in rows or []:
            self.texts['bloom'].append(ft)
            self.binaries.append(bytes(fb))
            if ct and len(ct) < 20000:
                self.texts['counting_bloom'].append(ct)
            if stt and len(stt) < 20000:
                self.texts['scalable_bloom'].append(stt)
        self.read_catalog()
        rows, _ = r("""
            SELECT o.oprname, o.oprleft::regtype::text, o.oprright::regtype::text, o.oprresult::regtype::text
              FROM pg_depend d JOIN pg_operator o ON o.oid = d.objid
             WHERE d.classid = 'pg_operator'::regclass AND d.deptype = 'e'
               AND d.refobjid = (SELECT oid FROM pg_extension WHERE extname = 'bloomset')
               AND has_function_privilege(%s, o.oprcode, 'EXECUTE')""" % lit(ROLE), bloom=False)
        self.ops = rows
        rows, _ = r("""
            SELECT c.castsource::regtype::text, c.casttarget::regtype::text
              FROM pg_depend d JOIN pg_cast c ON c.oid = d.objid
             WHERE d.classid = 'pg_cast'::regclass AND d.deptype = 'e'
               AND d.refobjid = (SELECT oid FROM pg_extension WHERE extname = 'bloomset')
               AND (c.castfunc = 0 OR has_function_privilege(%s, c.castfunc, 'EXECUTE'))""" % lit(ROLE),
                    bloom=False)
        self.casts = rows
        rows, code = r("SELECT current_setting('bloomset.fast_hash', true)", bloom=False)
        self.has_fast_hash = bool(rows and rows[0][0] is not None)
        print('catalog: %d functions, %d aggregates, %d operators, %d casts callable by %s; %d pool filters; '
              'fast_hash %s' % (len(self.funcs), len(self.aggs), len(self.ops), len(self.casts), ROLE, self.npool,
                                'present' if self.has_fast_hash else 'absent'), flush=True)
        self.has_cmp = any(f[0] == 'bloom_cmp' for f in self.funcs) and \
            any(f[0] == 'bloom_hash_value' for f in self.funcs)
        self.by_ret = collections.defaultdict(list)
        for fn in self.funcs:
            if not self.fninfo[fn]['volatile'] and not self.fninfo[fn]['retset']:
                self.by_ret[fn[2]].append(fn)
        for i in range(1, 6):
            r("INSERT INTO ftab VALUES (%d, NULL, bloom_empty(1000), counting_bloom_empty(1000), "
              "scalable_bloom_empty(10, 0.01, 2))" % i, bloom=True, oracle='setup')
        self.ftab_members = {i: collections.Counter() for i in range(1, 6)}
        self.ftab_fam = {i: None for i in range(1, 6)}
        self.setup_pool_objects()
        self.become_role()

    def read_catalog(self):
        """Every function, aggregate, operator and cast of the extension (pg_depend) that the role
        can execute: no name is left out.  A function taking internal is not callable from SQL (no
        expression has that type): it is listed with the object that uses it, and a call is tried
        once to show that the server refuses it."""
        r = self.run
        rows, _ = r("""
            SELECT p.proname, p.prokind, p.prorettype::regtype::text,
                   array(SELECT t::regtype::text FROM unnest(p.proargtypes) t), p.pronargdefaults,
                   p.oid::regprocedure::text, p.provolatile, p.proretset,
                   array(SELECT coalesce(n, '') FROM unnest(
                            coalesce(p.proargnames, array_fill(''::text, ARRAY[p.pronargs])),
                            coalesce(p.proargmodes, array_fill('i'::"char", ARRAY[p.pronargs]))) AS u(n, m)
                          WHERE m IN ('i', 'b', 'v')),
                   has_function_privilege(%s, p.oid, 'EXECUTE'),
                   'internal'::regtype = ANY (p.proargtypes::oid[]),
                   coalesce(
                     (SELECT 'support function of aggregate ' || a.aggfnoid::regprocedure::text FROM pg_aggregate a
                       WHERE p.oid IN (a.aggtransfn, a.aggfinalfn, a.aggcombinefn, a.aggserialfn, a.aggdeserialfn)
                       LIMIT 1),
                     (SELECT 'I/O function of type ' || t.oid::regtype::text FROM pg_type t
                       WHERE p.oid IN (t.typinput, t.typoutput, t.typreceive, t.typsend) LIMIT 1),
                     (SELECT 'planner support of ' || q.oid::regprocedure::text FROM pg_proc q
                       WHERE q.prosupport = p.oid LIMIT 1),
                     (SELECT 'selectivity estimator of operator ' || o.oid::regoperator::text FROM pg_operator o
                       WHERE p.oid IN (o.oprrest, o.oprjoin) LIMIT 1),
                     (SELECT 'handler of access method ' || m.amname FROM pg_am m WHERE m.amhandler = p.oid LIMIT 1),
                     'no object of the extension uses it')
              FROM pg_depend d JOIN pg_proc p ON p.oid = d.objid
             WHERE d.classid = 'pg_proc'::regclass AND d.deptype = 'e'
               AND d.refobjid = (SELECT oid FROM pg_extension WHERE extname = 'bloomset')
             ORDER BY 6""" % lit(ROLE), bloom=False)
        self.funcs, self.aggs, self.uncallable = [], [], []
        self.fninfo = {}
        for name, kind, ret, args, nd, sig, vol, retset, argnames, can, internal, user in rows or []:
            fn = (name, kind, ret, tuple(args), nd)
            argnames = list(argnames) + [''] * (len(args) - len(argnames))
            self.fninfo[fn] = {'sig': sig, 'volatile': vol == 'v', 'retset': retset, 'argnames': argnames}
            if not can:
                self.uncallable.append((sig, 'no EXECUTE privilege for the role %s' % ROLE, None))
            elif internal:
                # shown by trying: NULL is the only value SQL could pass, and it cannot be cast to internal
                sql = 'SELECT %s(%s)' % (name, ', '.join('NULL::%s' % a for a in args))
                _, code = r(sql, bloom=False)
                if code is None:
                    self.fail('wrong', 'internal_not_callable', 'a function taking internal was called', sql)
                self.uncallable.append((sig, 'takes internal (%s)' % user, code))
            elif kind == 'a':
                self.aggs.append(fn)
            elif kind == 'f':
                self.funcs.append(fn)
        self.drawn = collections.Counter()

    def setup_pool_objects(self):
        """Relations a regclass argument names (real filter indexes of two sets of parameters, bloomskip
        indexes when the access method exists, and unrelated tables, a sequence, an index, views, a
        partitioned table, a composite type's relation, a TOAST table, a catalog), types for regtype
        arguments, and stored bytes of the filter index for bytea arguments."""
        r = self.run
        r("DROP TABLE IF EXISTS fz_pool_chunks, fz_pool_chunks2, fz_pool_idx, fz_pool_idx2, fz_part CASCADE",
          bloom=False)
        r("DROP VIEW IF EXISTS fz_view", bloom=False)
        r("DROP MATERIALIZED VIEW IF EXISTS fz_mview", bloom=False)
        r("CREATE TABLE fz_pool_chunks AS SELECT (id %% 9)::bigint AS id, bloom_agg(x, 100, 0.01) AS f "
          "FROM v_int4 GROUP BY 1", bloom=False)
        r("CREATE TABLE fz_pool_chunks2 AS SELECT (id %% 70)::bigint AS id, bloom_agg(x, 256, 3, 7) AS f "
          "FROM v_text GROUP BY 1", bloom=False)
        r("CREATE VIEW fz_view AS SELECT * FROM fpool", bloom=False)
        r("CREATE MATERIALIZED VIEW fz_mview AS SELECT id, f FROM fpool", bloom=False)
        r("CREATE TABLE fz_part (id bigint, f bloom) PARTITION BY RANGE (id)", bloom=False)
        r("CREATE TABLE fz_part_1 PARTITION OF fz_part FOR VALUES FROM (0) TO (1000)", bloom=False)
        self.has_findex = False
        if any(f[0] == 'bloom_index_create' for f in self.funcs):
            _, c1 = r("SELECT bloom_index_create('fz_pool_idx', 'SELECT id, f FROM fz_pool_chunks')", oracle='setup')
            _, c2 = r("SELECT bloom_index_create('fz_pool_idx2', 'SELECT id, f FROM fz_pool_chunks2')", oracle='setup')
            self.has_findex = c1 is None and c2 is None
        rows, _ = r("SELECT 1 FROM pg_am WHERE amname = %s" % lit(SKIP_AM), bloom=False)
        self.has_skip = bool(rows)
        rows, _ = r("SELECT opcname FROM pg_opclass WHERE opcmethod = (SELECT oid FROM pg_am WHERE amname = %s)"
                    % lit(SKIP_AM), bloom=False)
        self.skip_classes = {x[0] for x in rows or []}
        self.skip_pool = []
        if self.has_skip:
            for fam in ('int4', 'text', 'int8', 'uuid'):
                _, code = r("CREATE INDEX fz_skip_%s ON v_%s USING %s (x)" % (fam, fam, SKIP_AM), oracle='setup')
                if code is None:
                    self.skip_pool.append('fz_skip_%s' % fam)
        self.regclasses = ["'fpool'::regclass", "'v_int4'::regclass", "'ftab_pkey'::regclass",
                           "'fpool_id_seq'::regclass", "'fz_view'::regclass", "'fz_mview'::regclass",
                           "'fz_part'::regclass", "'fz_part_1'::regclass", "'pair'::regclass", "'pg_class'::regclass",
                           "(SELECT reltoastrelid FROM pg_class WHERE relname = 'fpool')::regclass",
                           "0::oid::regclass", "4294967295::oid::regclass", "'fz_idx'::regclass",
                           "'fz_rnd_a'::regclass", "'fz_pool_chunks'::regclass", "NULL::regclass"]
        self.good_regclasses = ["'fz_pool_idx'::regclass", "'fz_pool_idx2'::regclass"] + \
            ["'%s'::regclass" % i for i in self.skip_pool]
        self.index_blobs, self.index_ids = [], []
        if self.has_findex:
            rows, code = r("SELECT bits FROM fz_pool_idx WHERE bits IS NOT NULL ORDER BY seg, blk LIMIT 40", bloom=False)
            self.index_blobs = [bytes(x[0]) for x in rows or []]
            rows, code = r("SELECT ids::text FROM fz_pool_idx WHERE ids IS NOT NULL LIMIT 5", bloom=False)
            self.index_ids = [x[0] for x in rows or []]
        rows, _ = r("SELECT bloom_send(f), counting_bloom_send(cf), scalable_bloom_send(sf) FROM fpool "
                    "WHERE coalesce((bloom_info(f)).bytes, 0) < 4096 LIMIT 40", bloom=False)
        self.send_blobs = [bytes(b) for row in rows or [] for b in row if b is not None]
        rows, _ = r("SELECT bloom_to_parquet(bloom_parquet_agg(x, 100, 0.01)) FROM v_int4", bloom=False)
        self.send_blobs += [bytes(x[0]) for x in rows or [] if x[0] is not None]

    def become_role(self):
        """the role every statement after the setup runs as (a non-superuser that may create tables)"""
        r = self.run
        r("GRANT CREATE, USAGE ON SCHEMA public TO %s" % ROLE, bloom=False)
        r("GRANT ALL ON ALL TABLES IN SCHEMA public TO %s" % ROLE, bloom=False)
        r("GRANT ALL ON ALL SEQUENCES IN SCHEMA public TO %s" % ROLE, bloom=False)
        self.role_set = True
        r("SET ROLE %s" % ROLE, bloom=False)

    def create_role(self):
        self.run("DO $$BEGIN CREATE ROLE %s; EXCEPTION WHEN duplicate_object OR unique_violation THEN NULL; END$$"
                 % ROLE, bloom=False)

    # -- random expression builders ----------------------------------------
    def fam(self, exclude=()):
        return self.rng.choice([f for f in FAMILIES if f not in exclude])

    def pick(self, good, bad, p_bad=0.15):
        return self.rng.choice(bad if self.rng.random() < p_bad else good)

    def mutate_text(self, s):
        rng = self.rng
        m = rng.randrange(9)
        if m == 0 and len(s) > 1:
            i = rng.randrange(len(s))
            return s[:i] + rng.choice('0123456789abcdefg =-:xX') + s[i + 1:]
        if m == 1:
            return s[:rng.randrange(len(s) + 1)]
        if m == 2:
            return re.sub(r'family=\S*', lambda m: 'family=' + rng.choice(FAMS_TEXT).replace(' ', ''), s)
        if m == 3:
            key = rng.choice(['k', 'seed', 'bits', 'items', 'flags', 'coll', 'layout'])
            val = rng.choice(['0', '1', '-1', '8', '33', '255', '256', '257', '2147483648', '18446744073709551615',
                              '9223372036854775808', 'classic', 'blocked', 'counting', 'scalable', 'x', ''])
            return re.sub(r'\b%s=\S*' % key, lambda m: '%s=%s' % (key, val), s, count=1)
        if m == 4:
            return s + rng.choice(['0', '00', 'ff' * 32, ' ', ' x=1', '\t'])
        if m == 5:
            return s.replace('v1', rng.choice(['v0', 'v2', 'v', 'v01']), 1)
        if m == 6 and 'hex=' in s:
            head, hexpart = s.split('hex=', 1)
            return head + 'hex=' + hexpart[:len(hexpart) // 2]
        if m == 7:
            return re.sub(r'family=\S*', lambda m: 'family=' + rng.choice(FAMS_TEXT).replace(' ', ''), s)
        return s

    def mutate_bytes(self, b):
        rng = self.rng
        b = bytearray(b)
        m = rng.randrange(7)
        if m == 0 and b:
            i = rng.randrange(len(b))
            b[i] ^= 1 << rng.randrange(8)
        elif m == 1:
            b = b[:rng.randrange(len(b) + 1)]
        elif m == 2:
            b += bytes(rng.randrange(256) for _ in range(rng.choice([1, 4, 32])))
        elif m == 3 and len(b) >= 68:
            off = rng.choice([0, 1, 2, 3, 4, 12, 20, 28, 32, 36, 40])
            b[off] = rng.choice([0, 1, 2, 3, 4, 8, 32, 33, 255])
        elif m == 4 and len(b) >= 72:
            fam = rng.choice(FAMS_TEXT).encode()[:32]
            b[36:68] = fam + bytes(32 - len(fam))
        elif m == 5 and b:
            for _ in range(rng.randrange(1, 8)):
                i = rng.randrange(len(b))
                b[i] = rng.randrange(256)
        return bytes(b)

    def value(self, fam=None, depth=0):
        """an expression of a value of family fam (or a random one)."""
        rng = self.rng
        fam = fam or self.fam()
        r = rng.random()
        if r < 0.6:
            return '(SELECT x FROM v_%s WHERE id = %d)' % (fam, rng.choice(
                [rng.randrange(1, NROWS + 10), NROWS + 50, 1060, rng.randrange(1, 10)]))
        if r < 0.75:
            typ, expr, extra = FAMILIES[fam]
            if extra:
                return '(%s::%s)' % (rng.choice(extra), typ.split(' COLLATE')[0]) if 'COLLATE' not in typ \
                    else '(%s COLLATE ci)' % rng.choice(extra)
        if r < 0.85:
            return rng.choice(['NULL', "'abc'", '42', '1.5', "'\\x00'::bytea", "'{1,2}'::int[]", "'x'::varchar",
                               "ROW(1, 'a')", "'(1,2)'::point", "now()", "'NaN'::float8", "'abc' COLLATE \"C\"",
                               "'abc' COLLATE ci", "'ok'::mood", "ARRAY['ok'::mood]", "int4range(1, 5)",
                               "'sad'::mood", "3::posint", "'{}'::jsonb", "(-0)::float8", "1::int2", "1::int8",
                               "1.000::numeric"])
        return self.array(fam) if rng.random() < 0.3 else \
            '(SELECT x FROM v_%s ORDER BY id DESC LIMIT 1)' % fam

    def array(self, fam=None):
        rng = self.rng
        fam = fam or self.fam()
        r = rng.random()
        if r < 0.5:
            if fam in ARRAY_FAMS:
                return rng.choice(["'{}'::int[]", "'{{1,2},{3,4}}'::int[]", "ARRAY[NULL]::text[]",
                                   "'[5:6]={1,2}'::int[]", "(SELECT x FROM v_%s WHERE id = 3)" % fam])
            return 'ARRAY(SELECT x FROM v_%s WHERE id %% %d = %d)' % (fam, rng.choice([1, 2, 7, 50]),
                                                                  rng.randrange(2))
        return rng.choice(["'{}'::int[]", "'{NULL}'::int[]", "'{{1,2},{3,4}}'::int[]", "ARRAY[NULL, 1]::int8[]",
                           "'[-3:-2]={a,b}'::text[]", "ARRAY[]::text[]", "ARRAY['ok'::mood]",
                           "ARRAY[1.0, NULL, 2.50]", "ARRAY[ARRAY[1,2]]", "'{{{1}}}'::int2[]", "ARRAY[NULL]",
                           "ARRAY[(SELECT x FROM v_%s WHERE id = 2)]" % fam, "ARRAY[ROW(1,'a')::pair]",
                           "'{\"\\\\x00\"}'::bytea[]"])

    def filter_expr(self, typ='bloom', depth=0):
        rng = self.rng
        col = {'bloom': 'f', 'counting_bloom': 'cf', 'scalable_bloom': 'sf'}[typ]
        r = rng.random()
        if r < 0.45:
            return '(SELECT %s FROM fpool WHERE id = %d)' % (col, rng.randrange(1, self.npool + 1))
        if r < 0.6 and self.texts[typ]:
            s = rng.choice(self.texts[typ])
            if rng.random() < 0.7:
                s = self.mutate_text(s)
            return '%s::%s' % (lit(s), typ)
        if r < 0.68 and typ == 'bloom' and self.binaries:
            b = rng.choice(self.binaries)
            if rng.random() < 0.8:
                b = self.mutate_bytes(b)
            return rng.choice(["bloom_from_bytea('\\x%s'::bytea)", "('\\x%s'::bytea)::bloom"]) % b.hex()
        if r < 0.8 and depth < 2:
            cands = self.by_ret.get(typ, [])
            if cands:
                return self.call(rng.choice(cands), depth + 1)
        if r < 0.9:
            if typ == 'bloom':
                if rng.random() < 0.5:
                    return 'bloom_empty(%s, %s)' % (self.pick(CAPS, BAD_CAPS), self.pick(FPRS, BAD_FPRS))
                return 'bloom_empty(%s, %s, %s)' % (self.pick(SIZES, BAD_SIZES), self.pick(HASHES, BAD_HASHES),
                                                    self.pick(SEEDS, ['NULL']))
            if typ == 'counting_bloom':
                return 'counting_bloom_empty(%s, %s)' % (self.pick(CAPS, BAD_CAPS), self.pick(FPRS, BAD_FPRS))
            return 'scalable_bloom_empty(%s, %s, %s)' % (self.pick(CAPS, BAD_CAPS), self.pick(FPRS, BAD_FPRS),
                                                         self.pick(['1', '2', '3', '10'], ['0', '-1', '1000',
                                                                                         'NULL']))
        return rng.choice(['NULL::%s' % typ, '(SELECT %s FROM fpool WHERE id = %d)' % (col, self.npool)])

    def wrong_kind_filter(self, typ):
        """a value of another kind where typ is expected: the text or binary form of a counting or
        scalable filter read as a bloom filter (and the other way round), Parquet bytes, index rows"""
        rng = self.rng
        others = [k for k in ('bloom', 'counting_bloom', 'scalable_bloom') if k != typ and self.texts[k]]
        c = rng.randrange(4)
        if c == 0 and others:
            return '%s::%s' % (lit(rng.choice(self.texts[rng.choice(others)])), typ)
        if c == 1:
            col = rng.choice([{'bloom': 'f', 'counting_bloom': 'cf', 'scalable_bloom': 'sf'}[k]
                              for k in ('bloom', 'counting_bloom', 'scalable_bloom') if k != typ])
            return '(SELECT %s FROM fpool WHERE id = %d)::text::%s' % (col, self.rng.randrange(1, self.npool + 1), typ)
        blobs = self.send_blobs + self.index_blobs
        if blobs and typ == 'bloom':
            b = rng.choice(blobs)
            if rng.random() < 0.5:
                b = self.mutate_bytes(b)
            return rng.choice(["bloom_from_bytea('\\x%s'::bytea)", "('\\x%s'::bytea)::bloom"]) % b.hex()
        return 'NULL::%s' % typ

    def bytea_arg(self):
        """bytes: filters' binary forms, send output of every kind, Parquet bytes, stored rows of the
        filter index (header, stripes), each truncated, overwritten or extended"""
        rng = self.rng
        pools = [p for p in (self.binaries, self.send_blobs, self.index_blobs) if p]
        c = rng.random()
        if c < 0.06:
            return 'NULL::bytea'
        if c < 0.1:
            return rng.choice(["'\\x'::bytea", "'\\x00'::bytea", "decode(repeat('ff', 70000), 'hex')",
                               "decode(repeat('00', 4096), 'hex')"])
        if c < 0.2 and self.has_findex:
            return rng.choice(['(SELECT bits FROM fz_pool_idx ORDER BY seg, blk LIMIT 1 OFFSET %d)' % rng.randrange(8),
                               '(SELECT bits FROM fz_pool_idx WHERE blk = -1 AND seg = -1)',
                               '(SELECT bits FROM fz_pool_idx2 ORDER BY seg, blk LIMIT 1 OFFSET %d)'
                               % rng.randrange(8)])
        b = rng.choice(rng.choice(pools)) if pools else b''
        if rng.random() < 0.7:
            b = self.mutate_bytes(b)
        return "'\\x%s'::bytea" % b.hex()

    def array_arg(self, elem, depth, fam, name):
        """an array of elem: a few generated elements, empty, NULL, NULL elements, two dimensions,
        a large one, stored index ids"""
        rng = self.rng
        typ = elem + '[]'
        c = rng.random()
        if c < 0.08:
            return 'NULL::%s' % typ
        if c < 0.16:
            return "'{}'::%s" % typ
        if c < 0.22:
            return 'ARRAY[NULL]::%s' % typ
        if c < 0.28:
            return 'ARRAY[ARRAY[%s, %s], ARRAY[%s, %s]]::%s' % tuple(
                [self.arg(elem, depth + 1, fam, name) for _ in range(4)] + [typ])
        if c < 0.32 and elem in ('integer', 'bigint', 'smallint'):
            return 'array_fill(%s::%s, ARRAY[%s])' % (rng.choice(['0', '1', '-1', '63']), elem,
                                                        rng.choice(['64', '65', '1000', '100000']))
        if c < 0.4 and elem in ('integer', 'bigint') and self.index_ids:
            return "'%s'::%s" % (rng.choice(self.index_ids), typ)
        if c < 0.48 and elem == 'bloom':
            return rng.choice(['ARRAY(SELECT f FROM fz_pool_chunks ORDER BY id)',
                               'ARRAY(SELECT f FROM fpool WHERE id %% %d = 0)' % rng.choice([1, 5, 40]),
                               'ARRAY(SELECT f FROM fz_pool_chunks2 ORDER BY id LIMIT %d)' % rng.choice([1, 64, 65])])
        n = rng.choice([1, 1, 2, 3, 8])
        return 'ARRAY[%s]::%s' % (', '.join(self.arg(elem, depth + 1, fam, name) for _ in range(n)), typ)

    def regclass_arg(self):
        rng = self.rng
        if self.good_regclasses and rng.random() < 0.45:
            return rng.choice(self.good_regclasses)
        return rng.choice(self.regclasses)

    def arg(self, typ, depth, fam, name=''):
        """an argument of type typ (named name in the function's signature): good values and hostile
        ones for every type -- NULLs, extremes, wrong kinds, mutated bytes, unrelated relations"""
        rng = self.rng
        if rng.random() < 0.04 and typ not in ('anycompatible', 'anyelement', 'anycompatiblearray', 'anyarray'):
            return 'NULL::%s' % typ
        if typ in ('bloom', 'counting_bloom', 'scalable_bloom'):
            return self.wrong_kind_filter(typ) if rng.random() < 0.05 else self.filter_expr(typ, depth)
        if typ in ('anycompatible', 'anyelement'):
            return self.value(fam, depth)
        if typ in ('anycompatiblearray', 'anyarray'):
            return self.array(fam)
        if typ == 'bigint':
            # capacities and seeds; the valid ones stay below ~1 MB of filter
            return self.pick(CAPS + ['0', '1', '-1', '42', '9223372036854775807', '-9223372036854775808'],
                             BAD_CAPS + BIGINTS, 0.3)
        if typ in ('integer', 'smallint'):
            v = self.pick(['1', '2', '3', '4', '8', '16', '64', '256', '4096', '65536'],
                          BAD_SIZES + BAD_HASHES + INTS + ['9', '1024'], 0.3)
            return v if typ == 'integer' else '%s::smallint' % (v if v in ('NULL', '0', '1', '-1', '2', '3') else '7')
        if typ == 'double precision':
            return self.pick(FPRS, BAD_FPRS + FLOATS_EXTREME, 0.3)
        if typ == 'regclass':
            return self.regclass_arg()
        if typ == 'regtype':
            return rng.choice(["'%s'::regtype" % t for t in REGTYPES if t != 'fixed_len_byte_array'] +
                              ['0::oid::regtype', '4294967295::oid::regtype', 'NULL::regtype',
                               "'fixed_len_byte_array'::text::regtype"])
        if typ == 'refcursor':
            # 'fzcur' is declared by the statement's prelude (see st_call)
            return rng.choice(["'fzcur'", "'fzcur'", "'fzcur'", "'nocursor'", "''", 'NULL::refcursor'])
        if typ == 'cstring':
            kind = rng.choice(['bloom', 'counting_bloom', 'scalable_bloom'])
            t = rng.choice(self.texts[kind]) if self.texts[kind] else 'bloom:v1'
            if rng.random() < 0.6:
                t = self.mutate_text(t)
            return '%s::cstring' % lit(t)
        if typ == 'text' and name in ('source', 'query', 'sql'):
            return rng.choice(SOURCES[:-1] + ['NULL::text']) if rng.random() < 0.97 else lit(rng.choice(SOURCES))
        if typ == 'text' and name == 'name':
            n = rng.choice(NEW_NAMES)
            return 'NULL::text' if n == 'NULL' else lit(n)
        if typ == 'text':
            r = rng.random()
            if r < 0.5:
                return 'substr((SELECT x FROM v_%s WHERE id = %d), %d, %d)' % (
                    rng.choice(sorted(TEXT_FAMS)), rng.randrange(1, NROWS + 10), rng.randrange(-2, 20),
                    rng.randrange(-1, 12))
            return lit(rng.choice(['', '%', '_', '%%', '\\', '\\%', 'a%b_c', '%abc%', 'abc', 'classic', 'blocked',
                                   'counting', 'scalable', 'xyz', '日本', 'ü', 'a' * 300, '%_%_%', 'timeout',
                                   'svc1 timeout', '...', '\\\\', 'x\\']))
        if typ == 'bloom_agg_state':
            # a state of the filter phase built from a filter's binary form (the kind's tag b, c or
            # s, phase f, no rows, no sizing arguments) -- the value and union aggregates' states
            # of every kind -- or that text mutated at one hex digit, or truncated
            kind = rng.choice(['bloom', 'bloom', 'counting_bloom', 'scalable_bloom'])
            tag = {'bloom': '62', 'counting_bloom': '63', 'scalable_bloom': '73'}[kind]
            st = "('\\x%s66000000000000000000' || encode(%s_send(%s), 'hex'))" % (
                tag, kind, self.filter_expr(kind, depth + 1))
            r = rng.random()
            if r < 0.3:
                st = "overlay(%s placing '%s' from %d for 1)" % (st, rng.choice('0f7a'), rng.randrange(3, 120))
            elif r < 0.4:
                st = 'left(%s, %d)' % (st, rng.randrange(0, 80))
            return '%s::bloom_agg_state' % st
        if typ == 'bytea':
            return self.bytea_arg()
        if typ == 'boolean':
            return rng.choice(['true', 'false', 'NULL::boolean'])
        if typ.endswith('[]'):
            return self.array_arg(typ[:-2], depth, fam, name)
        return 'NULL::%s' % typ

    def call(self, fn, depth=0):
        name, kind, ret, args, ndefaults = fn
        fam = self.fam()
        nargs = len(args) - self.rng.randrange(ndefaults + 1)
        names = self.fninfo[fn]['argnames'] if fn in getattr(self, 'fninfo', {}) else [''] * len(args)
        parts = [self.arg(a, depth, fam, n) for a, n in zip(args[:nargs], names)]
        if depth == 0:
            self.drawn[self.fninfo[fn]['sig']] += 1
        return '%s(%s)' % (name, ', '.join(parts))

    def wrap(self, expr, ret):
        """a SELECT list item that does not ship megabytes back."""
        rng = self.rng
        if ret in ('bloom', 'counting_bloom', 'scalable_bloom'):
            c = rng.random()
            if c < 0.4:
                return 'md5((%s)::text)' % expr
            if c < 0.6 and ret == 'bloom':
                return '(bloom_info(%s)).*' % expr
            if c < 0.7 and ret == 'bloom':
                return 'md5(bloom_to_bytea(%s))' % expr
            if c < 0.8:
                return '(%s) IS NULL' % expr
            return 'length((%s)::text)' % expr
        if ret.endswith('[]'):
            return 'array_length(%s, 1)' % expr
        if ret == 'bytea':
            return rng.choice(['md5(%s)', 'length(%s)'])  % expr
        if ret == 'cstring':
            return 'md5((%s)::text)' % expr
        return expr

    def run_tx(self, prelude, sql, commit):
        """sql in a transaction of its own after the prelude statements (say, a DECLARE of the cursor
        an argument names), committed or rolled back"""
        self.run('BEGIN', bloom=False)
        for p in prelude:
            _, code = self.run(p, bloom=False)
            if code:
                self.run('ROLLBACK', bloom=False)
                return None, code
        rows, code = self.run(sql)
        self.run('COMMIT' if commit and code is None else 'ROLLBACK', bloom=False)
        return rows, code

    # -- statement kinds ----------------------------------------------------
    def st_call(self, fn=None):
        """one function of the catalog with generated arguments; set-returning ones in FROM; volatile
        ones (they may write: the filter index's functions) in a transaction committed or rolled back;
        a refcursor argument's cursor declared first"""
        rng = self.rng
        fn = fn or rng.choice(self.funcs)
        info = self.fninfo[fn]
        expr = self.call(fn)
        if info['retset']:
            sql = rng.choice(['SELECT count(*) FROM %s AS r', 'SELECT md5(r::text) FROM %s AS r LIMIT 5']) % expr
        elif fn[2] == 'record':
            sql = 'SELECT (%s).*' % expr if rng.random() < 0.7 else 'SELECT * FROM %s' % expr
        else:
            sql = 'SELECT %s' % self.wrap(expr, fn[2])
        prelude = []
        if 'refcursor' in fn[3] and "'fzcur'" in expr:
            prelude.append('DECLARE fzcur CURSOR FOR %s' % rng.choice(CURSOR_QUERIES))
        if fn[0] == 'bloom_index_create' and rng.random() < 0.5:
            self.run('DROP TABLE IF EXISTS fz_rnd_a, fz_rnd_b, fz_rnd_c, "FZ_RND_A"', bloom=False)
        if prelude or (info['volatile'] and rng.random() < 0.5):
            self.run_tx(prelude, sql, commit=rng.random() < 0.5)
        else:
            self.submit(sql)

    def st_operator(self, op=None):
        name, left, right, res = op or self.rng.choice(self.ops)
        self.drawn['operator %s(%s, %s)' % (name, left, right)] += 1
        fam = self.fam()
        sql = 'SELECT %s' % self.wrap('(%s) %s (%s)' % (self.arg(left, 1, fam), name, self.arg(right, 1, fam)), res)
        self.submit(sql)

    def st_cast(self, cast=None):
        src, dst = cast or self.rng.choice(self.casts)
        self.drawn['cast %s -> %s' % (src, dst)] += 1
        self.submit('SELECT %s' % self.wrap('(%s)::%s' % (self.arg(src, 1, None), dst), dst))

    def st_agg(self, agg=None):
        rng = self.rng
        agg = agg or rng.choice(self.aggs)
        name, kind, ret, args, nd = agg
        self.drawn[self.fninfo[agg]['sig']] += 1
        fam = self.fam()
        if args[0] not in ('bloom', 'counting_bloom', 'scalable_bloom', 'text', 'anyelement', 'anycompatible'):
            # an aggregate of other argument types: generated arguments over a few rows
            sql = 'SELECT %s FROM generate_series(1, %d) g' % (self.wrap('%s(%s)' % (name, ', '.join(
                self.arg(a, 1, fam, n) for a, n in zip(args, self.fninfo[agg]['argnames']))), ret),
                rng.choice([0, 1, 3, 100]))
            self.submit(sql)
            return
        if args[0] in ('bloom', 'counting_bloom', 'scalable_bloom'):
            src = '(SELECT id, %s AS x FROM fpool) s' % {'bloom': 'f', 'counting_bloom': 'cf'}.get(args[0], 'sf')
            if rng.random() < 0.3:
                src = '(SELECT id %% 7 AS id, bloom_agg(x) AS x FROM v_%s GROUP BY 1) s' % fam
            elif rng.random() < 0.3:
                src = ('(SELECT id, f AS x FROM fpool WHERE fam = (SELECT fam FROM fpool WHERE id = %d)) s'
                       % rng.randrange(1, self.npool + 1))
        elif args[0] == 'text':
            src = 'v_%s s' % rng.choice(sorted(TEXT_FAMS) + [fam])
        else:
            src = 'v_%s s' % fam
        extra = [self.arg(a, 1, fam) if rng.random() < 0.3 else
                 {'bigint': rng.choice(CAPS), 'double precision': rng.choice(FPRS),
                  'integer': rng.choice(['1', '2', '3', '8', '64', '256', 'id % 3 + 1', '(id % 10)'])}.get(a, 'NULL')
                 for a in args[1:]]
        if name == 'bloom_agg' and len(args) == 4:
            extra = [rng.choice(SIZES[:5]), rng.choice(HASHES), rng.choice(SEEDS)]
            if rng.random() < 0.2:
                extra = [self.arg('integer', 1, fam), self.arg('integer', 1, fam), self.arg('bigint', 1, fam)]
        call = '%s(%s)' % (name, ', '.join(['x'] + extra))
        if rng.random() < 0.15:
            call = '%s(DISTINCT %s)' % (name, ', '.join(['x'] + extra)) if len(extra) == 0 else call
        if rng.random() < 0.15:
            call = call[:-1] + ' ORDER BY id DESC)'
        if rng.random() < 0.1:
            call += ' FILTER (WHERE id % 3 <> 0)'
        c = rng.random()
        if c < 0.45:
            sql = 'SELECT %s FROM %s' % (self.wrap(call, ret), src)
        elif c < 0.7:
            sql = 'SELECT id %% %d, %s FROM %s GROUP BY 1' % (rng.choice([2, 5, 50]), self.wrap(call, ret), src)
        elif c < 0.85:
            frame = rng.choice(['', 'ROWS BETWEEN 2 PRECEDING AND CURRENT ROW', 'ROWS UNBOUNDED PRECEDING',
                                'RANGE BETWEEN UNBOUNDED PRECEDING AND UNBOUNDED FOLLOWING',
                                'ROWS BETWEEN 1 PRECEDING AND 1 FOLLOWING'])
            sql = ('SELECT count(DISTINCT md5(w::text)) FROM (SELECT %s OVER (PARTITION BY id %% 3 ORDER BY id %s) '
                   'AS w FROM %s) q' % (call, frame, src))
        else:
            sql = 'SELECT %s FROM %s' % (self.wrap('(%s)' % call, ret), src) + \
                rng.choice([' HAVING count(*) > 0', ' WHERE false', ' WHERE id < 0', ''])
        self.submit(sql)

    def st_probe_scan(self):
        """a probe over a table scan (the per-row path: caches, lookahead)."""
        rng = self.rng
        fam = self.fam()
        fexpr = rng.choice(['(SELECT f FROM fpool WHERE id = %d)' % rng.randrange(1, self.npool + 1),
                            '(SELECT f FROM fpool WHERE fam = %s LIMIT 1)' % lit(fam),
                            '(SELECT f FROM fpool ORDER BY id DESC LIMIT 1 OFFSET %d)' % rng.randrange(3)])
        probe = rng.choice(['bloom_contains(%s, x)', '%s @> x', 'bloom_contains_any(%s, ARRAY[x])',
                            'bloom_ngram_may_contain(%s, x::text)', 'bloom_may_like(%s, x::text)',
                            'bloom_token_may_contain(%s, x::text)'])
        src = rng.choice(['v_%s' % fam, '(SELECT * FROM v_%s ORDER BY id DESC) s' % fam, 'v_%s' % fam])
        if rng.random() < 0.3:
            sql = 'SELECT count(*) FROM fpool p, %s WHERE %s' % (src, probe % 'p.f')
        else:
            sql = 'SELECT count(*) FROM %s WHERE %s' % (src, probe % fexpr)
        self.submit(sql)

    def oracle_scan(self):
        """probes over a scan of a table with NULLs and variable-width columns
        before the probed one, with a filter of >= 4 MiB (the size where a
        probe may prefetch for the following rows) or a small one: every
        member is found, and answers equal those of a per-row probe."""
        rng = self.rng
        col = rng.choice(['s', 'b', 'v', 't2', 'a', 'n'])
        big = rng.random() < 0.6
        params = rng.choice(['4000000, 0.01', '3500000, 0.01', '8000000, 0.1']) if big else \
            rng.choice(['1000, 0.01', '100, 0.3'])
        cond = rng.choice(['true', 'a IS NULL', 'n %% %d = 0' % rng.choice([2, 3]), 'n > %d' % rng.randrange(100)])
        probe = rng.choice(['ff.f @> w.%s', 'bloom_contains(ff.f, w.%s)', 'bloom_contains_any(ff.f, ARRAY[w.%s])'])
        probe = probe % col
        sql = ('WITH ff AS MATERIALIZED (SELECT bloom_agg(%s, %s) AS f FROM wide WHERE %s) '
               'SELECT count(*) FROM wide w, ff WHERE %s AND w.%s IS NOT NULL AND NOT (%s)'
               % (col, params, cond, cond.replace('a ', 'w.a ').replace('n ', 'w.n '), col, probe))
        rows, code = self.run(sql, oracle='scan')
        if rows:
            self.check('scan_no_false_negatives', rows[0][0] == 0, '%d members reported absent' % rows[0][0], sql)
        sql = ('SELECT count(*) FROM wide w WHERE (SELECT f FROM fpool WHERE fam = %s ORDER BY id DESC LIMIT 1) @> w.%s'
               % (lit({'s': 'text', 'b': 'bytea', 'v': 'varchar', 't2': 'text', 'a': 'int4', 'n': 'int4'}[col]), col))
        self.run(sql, oracle='scan')

    def st_write(self):
        """writes with the exact member multiset tracked; then the oracle."""
        rng = self.rng
        fid = rng.randrange(1, 6)
        fam = self.ftab_fam[fid]
        if fam is None or rng.random() < 0.03:
            fam = self.fam(exclude=('comp',))
            cap = rng.choice(['100', '1000', '20'])
            _, code = self.run("UPDATE ftab SET fam = %s, f = bloom_empty(%s, %s), cf = counting_bloom_empty(%s, 0.01), "
                               "sf = scalable_bloom_empty(%s, %s, %s) WHERE id = %d"
                               % (lit(fam), cap, rng.choice(FPRS), cap, rng.choice(['1', '10', '100']),
                                  rng.choice(FPRS), rng.choice(['1', '2', '4']), fid), oracle='write')
            if code is None:
                # the model follows the row only when the reset happened (a
                # reset that failed leaves the old filters, of another family)
                self.ftab_fam[fid] = fam
                self.ftab_members[fid] = collections.Counter()
                self.ftab_removed[fid] = collections.Counter()
            return
        members = self.ftab_members[fid]
        c = rng.random()
        if c < 0.5:
            ids = [rng.randrange(1, NROWS + 8) for _ in range(rng.choice([1, 1, 3, 10]))]
            idl = ','.join(map(str, ids))
            form = rng.choice(['f = f || s.x, cf = cf || s.x, sf = sf || s.x',
                               'f = bloom_add(f, s.x), cf = counting_bloom_add(cf, s.x), '
                               'sf = scalable_bloom_add(sf, s.x)'])
            if len(ids) == 1:
                sql = 'UPDATE ftab SET %s FROM (SELECT x FROM v_%s WHERE id = %s) s WHERE ftab.id = %d' % (
                    form, fam, idl, fid)
                _, code = self.run(sql, oracle='write')
            else:
                sql = ('UPDATE ftab SET f = bloom_add_all(f, a), cf = counting_bloom_add_all(cf, a), '
                       'sf = scalable_bloom_add_all(sf, a) FROM '
                       '(SELECT ARRAY(SELECT x FROM v_%s WHERE id IN (%s)) AS a) s WHERE ftab.id = %d'
                       % (fam, idl, fid))
                if fam in ARRAY_FAMS:
                    return
                _, code = self.run(sql, oracle='write')
            if code is None:
                # the batch form adds each row once, however often its id was drawn
                for i in (ids if len(ids) == 1 else set(ids)):
                    members[i] += 1
        elif c < 0.65 and members:
            i = rng.choice(sorted(members))
            sql = ('UPDATE ftab SET cf = cf - s.x FROM (SELECT x FROM v_%s WHERE id = %d AND x IS NOT NULL) s '
                   'WHERE ftab.id = %d' % (fam, i, fid))
            _, code = self.run(sql, oracle='write')
            if code not in (None, '57014', '08006'):
                self.check('remove_member_accepted', False, 'removing a member raised %s' % code, sql)
            if code is None:
                members[i] -= 1
                if members[i] == 0:
                    del members[i]
                # f and sf still contain it: only cf changes; track cf separately by re-adding to f? no:
                # the oracle below checks cf only for the remaining multiset, f/sf for everything added
                self.ftab_removed.setdefault(fid, collections.Counter())[i] += 1
        else:
            self.oracle_write(fid)

    def oracle_write(self, fid):
        fam = self.ftab_fam[fid]
        members = self.ftab_members[fid]
        removed = self.ftab_removed.get(fid, collections.Counter())
        allids = sorted(set(members) | set(removed))
        if not allids:
            return
        kept = ','.join(map(str, sorted(members))) or '0'
        sql = ('SELECT count(*) FILTER (WHERE NOT f.f @> v.x), count(*) FILTER (WHERE NOT f.sf @> v.x), '
               'count(*) FILTER (WHERE v.id IN (%s) AND NOT f.cf @> v.x), count(*) '
               'FROM ftab f, v_%s v WHERE f.id = %d AND v.id IN (%s) AND v.x IS NOT NULL'
               % (kept, fam, fid, ','.join(map(str, allids))))
        rows, code = self.run(sql, oracle='write')
        if rows:
            fn = rows[0][:3]
            self.check('write_no_false_negatives', fn == (0, 0, 0),
                       'false negatives (bloom, scalable, counting) = %s of %d members' % (fn, rows[0][3]), sql)

    # -- oracles --------------------------------------------------------------
    def subset(self):
        rng = self.rng
        return rng.choice(['true', 'id %% %d = %d' % (rng.choice([2, 3, 7]), rng.randrange(2)),
                           'id <= %d' % rng.randrange(1, NROWS), 'id > %d' % rng.randrange(NROWS - 20, NROWS + 60),
                           'id IN (%d, %d)' % (rng.randrange(1, 30), NROWS + 1), 'false'])

    def build(self, fam, src):
        """(kind, build expression over rows 'x' of src) for a filter containing every non-null x."""
        rng = self.rng
        cap, fpr = rng.choice(CAPS[:5]), rng.choice(FPRS)
        size, k, seed = rng.choice(SIZES[:5]), rng.choice(HASHES), rng.choice(SEEDS)
        arr_ok = fam not in ARRAY_FAMS
        opts = [
            ('bloom', 'bloom_agg(x)'),
            ('bloom', 'bloom_agg(x, %s, %s)' % (cap, fpr)),
            ('bloom', 'bloom_agg(x, %s, %s, %s)' % (size, k, seed)),
            ('bloom', 'bloom_fold(bloom_agg(x, %s, %s), %s)' % (cap, fpr, rng.choice(['1', '2', '4', '8', '3']))),
            ('bloom', 'bloom_shrink(bloom_agg(x, %s, %s), %s)' % (cap, fpr, rng.choice(['0.5', '0.1', '0.01']))),
            ('bloom', 'bloom_shrink(bloom_agg(x))'),
            ('bloom', '(bloom_agg(x))::text::bloom'),
            ('bloom', 'bloom_from_bytea(bloom_to_bytea(bloom_agg(x, %s, %s)))' % (cap, fpr)),
            ('bloom', '(bloom_agg(x, %s, %s, %s))::bytea::bloom' % (size, k, seed)),
            ('bloom', 'bloom_union_agg(bloom_empty(%s, %s) || x)' % (cap, fpr)),
            ('bloom', 'bloom_union_agg(bloom_empty(%s, %s, %s) || x)' % (size, k, seed)),
            ('bloom', 'bloom_agg(x, %s, %s) | bloom_agg(x, %s, %s)' % (cap, fpr, cap, fpr)),
            ('bloom', 'bloom_agg(x) | bloom_agg(x) FILTER (WHERE id % 2 = 0)'),
            ('bloom', 'bloom_agg(x, %s, %s) & bloom_agg(x, %s, %s)' % (cap, fpr, cap, fpr)),
            ('bloom', 'bloom_intersect_agg(bloom_agg) FROM (SELECT bloom_agg(x, %s, %s) FROM src) q, '
                      '(SELECT 1 UNION ALL SELECT 2) two(i)' % (cap, fpr)),
            ('counting_bloom', 'counting_bloom_agg(x, %s, %s)' % (cap, fpr)),
            ('counting_bloom', '(counting_bloom_agg(x, %s, %s))::text::counting_bloom' % (cap, fpr)),
            ('counting_bloom', 'counting_bloom_agg(x, %s, %s) | counting_bloom_agg(x, %s, %s)'
             % (cap, fpr, cap, fpr)),
            ('bloom', '(counting_bloom_agg(x, %s, %s))::bloom' % (cap, fpr)),
            ('scalable_bloom', 'scalable_bloom_agg(x)'),
            ('scalable_bloom', 'scalable_bloom_agg(x, %s, %s)' % (rng.choice(['1', '5', '100']), fpr)),
            ('scalable_bloom', '(scalable_bloom_agg(x, 3, 0.1))::text::scalable_bloom'),
            ('scalable_bloom', 'scalable_bloom_agg(x, 7, 0.01) | scalable_bloom_agg(x, 7, 0.01)'),
        ]
        if arr_ok:
            opts += [
                ('bloom', 'bloom_add_all(bloom_empty(%s, %s), array_agg(x))' % (cap, fpr)),
                ('bloom', 'bloom_add_all(bloom_empty(%s, %s, %s), array_agg(x))' % (size, k, seed)),
                ('counting_bloom', 'counting_bloom_remove_all(counting_bloom_agg(x, %s, %s) || (SELECT x FROM v_%s '
                                   'WHERE id = 1), ARRAY[(SELECT x FROM v_%s WHERE id = 1)])' % (cap, fpr, fam, fam)),
            ]
        # folding and unfolding (unions across sizes) at many factors, and
        # filters larger than the 256 KiB chunks of the interruptible loops
        bigsize = rng.choice(['12288', '65536', '98304', '1048576', '1572864', '3145728'])
        factor = rng.choice(['2', '3', '4', '5', '6', '7', '8', '12', '16', '24', '32', '48', '64', '96', '128',
                             '192', '256', '384', '1024'])
        k2 = rng.choice(['1', '3', '8', '17', '32'])
        opts += [
            ('bloom', 'bloom_fold(bloom_agg(x, %s, %s, %s), %s)' % (bigsize, k2, seed, factor)),
            ('bloom', 'bloom_agg(x, %s, %s, %s) | bloom_fold(bloom_agg(x, %s, %s, %s) FILTER (WHERE id %% 2 = 0), %s)'
             % (bigsize, k2, seed, bigsize, k2, seed, factor)),
            ('bloom', 'bloom_fold(bloom_agg(x, %s, %s, %s), %s) | bloom_agg(x, %s, %s, %s) FILTER (WHERE id %% 3 = 0)'
             % (bigsize, k2, seed, factor, bigsize, k2, seed)),
            ('bloom', 'bloom_agg(x, %s, %s, %s) & bloom_fold(bloom_agg(x, %s, %s, %s), %s)'
             % (bigsize, k2, seed, bigsize, k2, seed, factor)),
            ('bloom', 'bloom_fold(bloom_agg(x, %s, %s), %s)' % (rng.choice(['1000000', '300000', '5000']),
                                                              rng.choice(FPRS), factor)),
            ('bloom', 'bloom_agg(x, 1000000, 0.01) | bloom_fold(bloom_agg(x, 1000000, 0.01), %s)' % factor),
            ('bloom', 'bloom_shrink(bloom_agg(x, %s, %s, %s), %s)' % (bigsize, k2, seed, rng.choice(FPRS))),
            ('bloom', 'bloom_union_agg(bloom_fold(bloom_empty(%s, %s, %s) || x, %s))' % (bigsize, k2, seed, factor)),
            ('bloom', '(bloom_fold(bloom_agg(x, %s, %s, %s), %s))::text::bloom' % (bigsize, k2, seed, factor)),
        ]
        kind, b = rng.choice(opts)
        return kind, b

    def probe(self, kind, fam):
        rng = self.rng
        arr_ok = fam not in ARRAY_FAMS
        if kind == 'bloom':
            opts = ['bloom_contains(f, x)', 'f @> x', '(f || x) @> x', 'bloom_contains(bloom_fold(f, 1), x)']
            if arr_ok:
                opts += ['bloom_contains_any(f, ARRAY[x])', 'bloom_contains_all(f, ARRAY[x, x])',
                         '(bloom_contains_each(f, ARRAY[NULL, x]))[2]', 'bloom_contains_any(f, ARRAY[NULL, x])']
            if fam in ('int2', 'int4'):
                opts += ['f @> x::int8', 'bloom_contains(f, x::numeric::int8)']
            if fam == 'numeric':
                opts += ['f @> (x * 1.000)', 'f @> (x + 0.0)']
            if fam == 'float4':
                opts += ['f @> x::float8']
            if fam == 'text':
                opts += ['f @> x::varchar', "f @> (x || '')", 'f @> (x COLLATE "C")', 'f @> (x COLLATE "POSIX")']
            if fam == 'interval':
                # '30 days' = '1 month' for interval equality
                opts += ["(f @> justify_days(x) OR justify_days(x) <> x)"]
            if fam == 'varchar':
                opts += ['f @> x::text']
            if fam == 'ci':
                # only where the variant equals x under the collation ('straße' <> 'STRASSE' at level 2)
                opts += ['(f @> (upper(x) COLLATE ci) OR upper(x) COLLATE ci <> x)',
                         '(f @> (lower(x) COLLATE ci) OR lower(x) COLLATE ci <> x)']
            if fam == 'domain':
                opts += ['f @> x::int']
            return rng.choice(opts)
        if kind == 'counting_bloom':
            return rng.choice(['counting_bloom_contains(f, x)', 'f @> x', '(f::bloom) @> x', '(f || x) @> x'])
        return rng.choice(['scalable_bloom_contains(f, x)', 'f @> x', '(f || x) @> x'])

    def oracle_members(self):
        rng = self.rng
        fam = self.fam()
        cond = self.subset()
        kind, b = self.build(fam, 'src')
        p = self.probe(kind, fam)
        if ' FROM (' in b:
            fbuild = 'SELECT %s' % b
        else:
            fbuild = 'SELECT %s AS f FROM src' % b
        sql = ('WITH src AS MATERIALIZED (SELECT id, x FROM v_%s WHERE %s), ff AS (%s) '
               'SELECT count(*) FILTER (WHERE NOT (%s)), count(*) FROM src, ff AS ff(f) WHERE x IS NOT NULL'
               % (fam, cond, fbuild, p))
        rows, code = self.run(sql, oracle='members')
        if rows:
            self.check('no_false_negatives', rows[0][0] == 0,
                       '%d of %d members reported absent' % (rows[0][0], rows[0][1]), sql)
        elif code:
            self.st.skipped['no_false_negatives'] += 1

    def oracle_text(self):
        rng = self.rng
        fam = rng.choice(sorted(TEXT_FAMS))
        cond = self.subset()
        c = rng.random()
        n = rng.choice([1, 2, 3, 4, 5, 8])
        if c < 0.35:
            agg = 'bloom_ngram_agg(x, %d)' % n if rng.random() < 0.8 else 'bloom_ngram_agg(x)'
            s0, ln = rng.randrange(1, 8), rng.randrange(0, 12)
            needle = 'substr(x, %d, %d)' % (s0, ln)
            # a needle ending in a backslash or holding % or _ is not a literal
            # LIKE fragment: only patterns that really match x count
            check = rng.choice(['bloom_ngram_may_contain(f, %s)' % needle,
                                "bloom_may_like(f, '%%' || %s || '%%') OR x NOT LIKE '%%' || %s || '%%'"
                                % (needle, needle)])
            sql = ('WITH src AS MATERIALIZED (SELECT id, x FROM v_%s WHERE %s), ff AS (SELECT %s AS f FROM src) '
                   'SELECT count(*) FILTER (WHERE NOT (%s)), count(*) FROM src, ff WHERE x IS NOT NULL'
                   % (fam, cond, agg, check))
            oracle = 'ngram_no_false_negatives'
        elif c < 0.55:
            agg = 'bloom_ngram_agg(x, %d)' % n
            pat = rng.choice(["left(x, 2) || '_' || substr(x, 4)", "'%' || substr(x, 3, 2) || '%' || right(x, 3)",
                              "x", "'_' || substr(x, 2)", "left(x, 4) || '%'", "'%' || substr(x, 2, 5) || '_%'",
                              "replace(x, 'a', '_')", "regexp_replace(x, '[0-9]', '%', 'g')"])
            sql = ('WITH src AS MATERIALIZED (SELECT id, x FROM v_%s WHERE %s), ff AS (SELECT %s AS f FROM src), '
                   'p AS (SELECT id, x, %s AS pat FROM src) '
                   'SELECT count(*) FILTER (WHERE x LIKE pat AND NOT bloom_may_like(f, pat)), '
                   'count(*) FILTER (WHERE x LIKE pat) FROM p, ff WHERE x IS NOT NULL' % (fam, cond, agg, pat))
            oracle = 'like_no_false_negatives'
        elif c < 0.8:
            tok = rng.choice(['x', "split_part(x, ' ', 1)", "split_part(x, ' ', 2)", "split_part(x, ' ', 3)",
                              "split_part(x, ' ', 2) || ' ' || split_part(x, ' ', 1)"])
            sql = ('WITH src AS MATERIALIZED (SELECT id, x FROM v_%s WHERE %s), ff AS (SELECT bloom_token_agg(x) '
                   'AS f FROM src) SELECT count(*) FILTER (WHERE NOT bloom_token_may_contain(f, %s)), count(*) '
                   'FROM src, ff WHERE x IS NOT NULL' % (fam, cond, tok))
            oracle = 'token_no_false_negatives'
        else:
            # n varying per row: either an error or no false negatives
            sql = ('WITH src AS MATERIALIZED (SELECT id, x FROM v_%s WHERE %s), '
                   'ff AS (SELECT bloom_ngram_agg(x, id %% 3 + 1) AS f FROM src) '
                   'SELECT count(*) FILTER (WHERE NOT bloom_ngram_may_contain(f, substr(x, 2, 4))), count(*) '
                   'FROM src, ff WHERE x IS NOT NULL' % (fam, cond))
            oracle = 'ngram_varying_n'
        rows, code = self.run(sql, oracle=oracle)
        if rows:
            self.check(oracle, rows[0][0] == 0, '%d of %d members reported absent' % (rows[0][0], rows[0][1]), sql)
        elif code:
            self.st.skipped[oracle] += 1

    def oracle_add_probe(self):
        """a value added with || / *_add is then found by @> / *_contains:
        true, and never an error (whatever overload the operator resolves to)."""
        rng = self.rng
        fam = self.fam()
        kind = rng.choice(['bloom', 'counting_bloom', 'scalable_bloom'])
        empty = {'bloom': rng.choice(['bloom_empty(100)', 'bloom_empty(64, 3, 7)']),
                 'counting_bloom': 'counting_bloom_empty(100)', 'scalable_bloom': 'scalable_bloom_empty(10)'}[kind]
        add = rng.choice(['%s || x' % empty, '%s_add(%s, x)' % (kind, empty)])
        probe = rng.choice(['(%s) @> x', '%s_contains(%%s, x)' % kind])
        probe = probe % add if probe.startswith('(') else probe % add
        sql = ('SELECT count(*) FILTER (WHERE NOT %s), count(*) FROM v_%s WHERE x IS NOT NULL AND id %% 7 = %d'
               % (probe, fam, rng.randrange(7)))
        rows, code = self.run(sql, oracle='add_probe')
        if rows:
            self.check('add_then_probe', rows[0][0] == 0, '%d of %d added values reported absent' % rows[0], sql)
        elif code not in ('57014', '08006') and not code.startswith('XX'):
            self.check('add_then_probe', False, 'adding then probing the same value raised %s' % code, sql)

    def oracle_ordering(self):
        """the btree and hash support of bloom (when the extension has them):
        = ignores the item counter, so equal filters (f | f, round trips) hash
        alike; bloom_cmp is antisymmetric and agrees with = < <= > >=; ORDER
        BY is consistent; GROUP BY by hashing and by sorting agree."""
        if not self.has_cmp:
            return
        rng = self.rng
        ids = ','.join(str(rng.randrange(1, self.npool + 1)) for _ in range(rng.choice([5, 10, 20])))
        self.run('DROP TABLE IF EXISTS ord', bloom=False)
        variant = rng.choice(['f | f', 'bloom_from_bytea(bloom_to_bytea(f))', 'f::text::bloom', 'bloom_fold(f, 1)',
                              'bloom_union_agg(f) OVER (PARTITION BY id)', 'f & f'])
        _, code = self.run('CREATE TABLE ord AS SELECT id, f FROM fpool WHERE id IN (%s) AND f IS NOT NULL '
                           'AND (bloom_info(f)).bytes < 100000 UNION ALL SELECT id + 1000, %s FROM fpool '
                           'WHERE id IN (%s) AND f IS NOT NULL AND (bloom_info(f)).bytes < 100000 UNION ALL '
                           "SELECT 100000, bloom_empty(100) UNION ALL SELECT 100001, bloom_empty(100) || 1"
                           % (ids, variant, ids), oracle='ordering')
        if code:
            return
        sql = ('SELECT count(*) FILTER (WHERE a.f = b.f AND bloom_hash_value(a.f) <> bloom_hash_value(b.f)), '
               'count(*) FILTER (WHERE a.f = b.f AND bloom_hash_value_extended(a.f, 7) <> '
               'bloom_hash_value_extended(b.f, 7)), '
               'count(*) FILTER (WHERE (a.f = b.f) <> (bloom_cmp(a.f, b.f) = 0)), '
               'count(*) FILTER (WHERE sign(bloom_cmp(a.f, b.f)) <> -sign(bloom_cmp(b.f, a.f))), '
               'count(*) FILTER (WHERE (a.f < b.f) <> (bloom_cmp(a.f, b.f) < 0) OR (a.f <= b.f) <> '
               '(bloom_cmp(a.f, b.f) <= 0) OR (a.f > b.f) <> (bloom_cmp(a.f, b.f) > 0) OR (a.f >= b.f) <> '
               '(bloom_cmp(a.f, b.f) >= 0) OR (a.f <> b.f) = (a.f = b.f)), '
               'count(*) FILTER (WHERE a.id % 1000 = b.id % 1000 AND a.id <> b.id AND a.id < 100000 AND b.id < 100000 '
               'AND a.f <> b.f), count(*) '
               'FROM ord a, ord b')
        rows, code = self.run(sql, oracle='ordering')
        if rows:
            r = rows[0]
            self.check('equal_filters_hash_alike', r[0] == 0 and r[1] == 0,
                       '%d / %d equal pairs with different hash values (%s)' % (r[0], r[1], variant), sql)
            self.check('cmp_consistent', r[2] == 0 and r[3] == 0 and r[4] == 0,
                       'cmp disagrees with = (%d), not antisymmetric (%d), operators disagree (%d)'
                       % (r[2], r[3], r[4]), sql)
            if True:
                self.check('equal_ignores_items', r[5] == 0,
                           '%d filters differ from their %s' % (r[5], variant), sql)
        sql = ('SELECT count(*) FILTER (WHERE p > f) FROM (SELECT f, lag(f) OVER (ORDER BY f) AS p FROM ord) s')
        rows, code = self.run(sql, oracle='ordering')
        if rows:
            self.check('order_by_consistent', rows[0][0] == 0, '%d adjacent pairs out of order' % rows[0][0], sql)
        res = []
        for h in ('on', 'off'):
            self.set('enable_hashagg', h)
            self.set('enable_sort', 'off' if h == 'on' else 'on')
            rows, code = self.run('SELECT count(*), sum(n) FROM (SELECT f, count(*) AS n FROM ord GROUP BY f) s',
                                  oracle='ordering')
            res.append(rows)
        self.run('RESET enable_hashagg', bloom=False)
        self.run('RESET enable_sort', bloom=False)
        if res[0] is not None and res[1] is not None:
            self.check('group_by_hash_equals_sort', res[0] == res[1], 'hash %s / sort %s' % tuple(res),
                       'SELECT f, count(*) FROM ord GROUP BY f')

    def oracle_window(self):
        rng = self.rng
        fam = self.fam()
        agg = rng.choice(['bloom_agg(x)', 'bloom_agg(x, 100, 0.01)', 'bloom_agg(x, 64, 3, 5)',
                          'counting_bloom_agg(x, 100, 0.1)', 'scalable_bloom_agg(x, 10, 0.1)'])
        frame = rng.choice(['ROWS UNBOUNDED PRECEDING', 'ROWS BETWEEN 3 PRECEDING AND CURRENT ROW',
                            'ROWS BETWEEN CURRENT ROW AND 2 FOLLOWING', ''])
        sql = ('SELECT count(*) FILTER (WHERE NOT w @> x), count(*) FROM (SELECT x, %s OVER (PARTITION BY id %% %d '
               'ORDER BY id %s) AS w FROM v_%s) q WHERE x IS NOT NULL' % (agg, rng.choice([1, 3]), frame, fam))
        rows, code = self.run(sql, oracle='window')
        if rows:
            self.check('window_no_false_negatives', rows[0][0] == 0,
                       '%d of %d rows absent from their window filter' % rows[0], sql)

    def oracle_roundtrip(self):
        rng = self.rng
        fam = self.fam()
        kind, b = self.build(fam, 'src')
        if ' FROM (' in b:
            return
        sql = ('WITH src AS (SELECT id, x FROM v_%s WHERE %s) INSERT INTO rt SELECT 1, %s FROM src'
               % (fam, self.subset(), {'bloom': '%s, NULL, NULL', 'counting_bloom': 'NULL, %s, NULL',
                                       'scalable_bloom': 'NULL, NULL, %s'}[kind] % b))
        self.run('TRUNCATE rt, rt2', bloom=False)
        _, code = self.run(sql, oracle='roundtrip')
        if code:
            return
        col = {'bloom': 'f', 'counting_bloom': 'cf', 'scalable_bloom': 'sf'}[kind]
        q = ('SELECT %(c)s::text = (%(c)s::text::%(t)s)::text, md5(%(c)s::text) FROM rt WHERE %(c)s IS NOT NULL'
             % {'c': col, 't': kind})
        rows, code = self.run(q, oracle='roundtrip')
        if rows:
            self.check('text_roundtrip', rows[0][0] is True, 'text form changes on text out/in', q)
            md5 = rows[0][1]
        else:
            return
        if kind == 'bloom':
            q = ('SELECT f = bloom_from_bytea(bloom_to_bytea(f)), bloom_to_bytea(f) = bloom_to_bytea(f::bytea::bloom),'
                 ' f::text = (bloom_from_bytea(bloom_to_bytea(f)))::text, f = f::text::bloom FROM rt WHERE f IS NOT NULL')
            rows, code = self.run(q, oracle='roundtrip')
            if rows:
                self.check('bytea_roundtrip', rows[0] == (True, True, True, True), 'bytea round trip: %s' % (rows[0],), q)
        # binary COPY out and in (send/recv of all three types)
        buf = io.BytesIO()
        _, code = self.run('COPY rt TO STDOUT (FORMAT binary)', copy_out=buf, oracle='roundtrip')
        if code:
            return
        buf.seek(0)
        _, code = self.run('COPY rt2 FROM STDIN (FORMAT binary)', copy_in=buf, oracle='roundtrip')
        if code:
            return
        q = 'SELECT md5(%s::text) FROM rt2 WHERE %s IS NOT NULL' % (col, col)
        rows, code = self.run(q, oracle='roundtrip')
        if rows:
            self.check('binary_roundtrip', rows[0][0] == md5, 'binary COPY round trip changes the filter', q)

    def st_copy_mutated(self):
        """binary COPY of filters (send), bytes mutated, COPY back in (recv of
        all three types): a clean 22P03-class error or a filter, never XX/crash."""
        rng = self.rng
        ids = ','.join(str(rng.randrange(1, self.npool + 1)) for _ in range(3))
        self.run('TRUNCATE rt2', bloom=False)
        buf = io.BytesIO()
        _, code = self.run('COPY (SELECT id, f, cf, sf FROM fpool WHERE id IN (%s) AND coalesce((bloom_info(f)).bytes, 0)'
                           ' < 100000) TO STDOUT (FORMAT binary)' % ids, copy_out=buf, oracle='copy')
        if code:
            return
        data = bytearray(buf.getvalue())
        if len(data) <= 21:
            return
        head, body = data[:19], data[19:]
        for _ in range(rng.choice([1, 1, 2, 4])):
            body = bytearray(self.mutate_bytes(bytes(body))) if rng.random() < 0.5 else body
            if body and rng.random() < 0.7:
                i = rng.randrange(len(body))
                body[i] ^= 1 << rng.randrange(8)
        _, code = self.run('COPY rt2 FROM STDIN (FORMAT binary)', copy_in=io.BytesIO(bytes(head + body)), oracle='copy')
        if code is None:
            self.run('SELECT md5(f::text), md5(cf::text), md5(sf::text), bloom_estimate_card(f), '
                     'scalable_bloom_estimate_card(sf), (counting_bloom_info(cf)).items, md5(bloom_to_bytea(f)), '
                     'md5(cf::bloom::text), md5((f | f)::text), md5((sf | sf)::text) FROM rt2', oracle='copy')
            self.run(rng.choice(["SELECT bloom_may_like(f, '%abc%') FROM rt2",
                                 "SELECT bloom_token_may_contain(f, 'svc1 timeout') FROM rt2",
                                 "SELECT f @> x FROM rt2, v_%s WHERE id < 5" % self.fam(),
                                 "SELECT sf @> x, sf || x FROM rt2, v_%s WHERE id < 5" % self.fam(),
                                 "SELECT cf @> x, cf - x FROM rt2, v_%s WHERE id < 5" % self.fam()]),
                     oracle='copy')

    def oracle_cancel(self):
        """long operations on stored 64 MiB filters stop within a second of
        statement_timeout.  Filters are stored first (building a 64 MiB value
        inline is itself a single allocation and copy, slow on a loaded
        machine and no loop of bloomset's); a slow cancellation is measured
        again and compared with the statement's full duration before it
        counts as a failure (one that ran to completion was not cancelled)."""
        rng = self.rng
        if getattr(self, 'big64', None) is None:
            # built once (a slow, loaded machine may need more than the usual timeout)
            self.run('DROP TABLE IF EXISTS big64', bloom=False)
            self.run("SET statement_timeout = '120s'", bloom=False)
            _, code = self.run("CREATE TABLE big64 AS SELECT bloom_empty(67108864, 8, 0) || 1 AS f, "
                               "bloom_empty(33554432, 8, 0) || 2 AS h, counting_bloom_empty(8000000) || 3 AS c",
                               oracle='cancel')
            self.run("SET statement_timeout = '%ds'" % self.args.timeout, bloom=False)
            self.big64 = code is None
        if not self.big64:
            return
        ops = ["SELECT length(f::text) FROM big64",
               "SELECT (bloom_info(f)).bits_set FROM big64",
               "SELECT bloom_estimate_card(f | f) FROM big64",
               "SELECT bloom_union_card(f, h) FROM big64",
               "SELECT length(bloom_to_bytea(bloom_fold(f, %s))) FROM big64" % rng.choice(['2', '3', '8', '64']),
               "SELECT length(bloom_to_bytea(bloom_shrink(f, 0.01))) FROM big64",
               "SELECT bloom_estimate_card(bloom_union_agg(f)) FROM big64, generate_series(1, 8)",
               "SELECT bloom_union(h, f) IS NULL FROM big64",
               "SELECT bloom_intersect(f, f) = f FROM big64",
               "SELECT bloom_jaccard(f, h) FROM big64",
               "SELECT length(c::text) FROM big64",
               "SELECT (counting_bloom_info(c)).nonzero_counters FROM big64",
               "SELECT (c::bloom) IS NULL FROM big64",
               "SELECT (c | c) IS NULL FROM big64"]
        sql = rng.choice(ops)
        timeout_ms = 300
        limit = timeout_ms / 1000.0 + 1.0
        times = []
        for attempt in range(2):
            self.run("SET statement_timeout = '%dms'" % timeout_ms, bloom=False)
            t0 = time.time()
            rows, code = self.run(sql, oracle='cancel')
            dt = time.time() - t0
            self.run("SET statement_timeout = '%ds'" % self.args.timeout, bloom=False)
            if code != '57014':
                return      # finished (or failed otherwise) before the timeout: nothing to measure
            times.append(dt)
            if dt <= limit:
                break
        self.st.cancel_max = max(getattr(self.st, 'cancel_max', 0.0), min(times))
        if min(times) <= limit:
            self.check('cancel_within_1s', True, '', sql)
            return
        self.run("SET statement_timeout = '120s'", bloom=False)
        t0 = time.time()
        rows, code = self.run(sql, oracle='cancel')
        full = time.time() - t0
        self.run("SET statement_timeout = '%ds'" % self.args.timeout, bloom=False)
        self.check('cancel_within_1s', min(times) <= 0.6 * full,
                   'statement_timeout %d ms: cancelled after %.2f s (uncancelled run: %.2f s)'
                   % (timeout_ms, min(times), full), sql)

    def parallel_on(self):
        rng = self.rng
        self.set_many([('max_parallel_workers_per_gather', '2'), ('parallel_setup_cost', '0'),
                       ('parallel_tuple_cost', '0'), ('min_parallel_table_scan_size', '0'),
                       ('parallel_leader_participation', rng.choice(['on', 'off'])),
                       ('enable_hashagg', rng.choice(['on', 'off'])), ('work_mem', rng.choice(["'64kB'", "'4MB'"]))])

    def parallel_off(self):
        self.run('; '.join('RESET %s' % s for s in (
            'max_parallel_workers_per_gather', 'parallel_setup_cost', 'parallel_tuple_cost',
            'min_parallel_table_scan_size', 'parallel_leader_participation', 'enable_hashagg', 'work_mem')), bloom=False)

    def oracle_parallel_members(self):
        """filters built by parallel (partial + combine + serialize) aggregation
        contain every row, including scalable ones (whose sub-filter chain may
        legitimately differ from the serial one)."""
        rng = self.rng
        col = rng.choice(['i4', 'i8', 't', 'n', 'u', 'w'])
        agg = rng.choice(['scalable_bloom_agg(%s)', 'scalable_bloom_agg(%s, %s, %s)' % ('%s', rng.choice(CAPS[:4]),
                                                                                      rng.choice(FPRS)),
                          'bloom_agg(%s)', 'counting_bloom_agg(%s, 1000, 0.01)',
                          'bloom_agg(%s, %s, %s, %s)' % ('%s', rng.choice(SIZES), rng.choice(HASHES),
                                                         rng.choice(SEEDS))]) % col
        grp = rng.choice(['grp', 'id % 7'])
        sql = ('WITH ff AS MATERIALIZED (SELECT %s AS g, %s AS f FROM big GROUP BY 1) '
               'SELECT count(*) FILTER (WHERE NOT ff.f @> b.%s), count(*) FROM big b JOIN ff ON ff.g = b.%s '
               'WHERE b.id %% 5 = 0'
               % (grp, agg, col, grp))
        self.parallel_on()
        rows, code = self.run(sql, oracle='parallel')
        self.parallel_off()
        if rows:
            self.check('parallel_no_false_negatives', rows[0][0] == 0,
                       '%d of %d rows absent from their parallel-built filter' % rows[0], sql)

    def oracle_parallel(self):
        rng = self.rng
        col, colfam = rng.choice([('i4', 'int4'), ('i8', 'int8'), ('t', 'text'), ('n', 'numeric'), ('u', 'uuid'),
                                  ('w', 'words')])
        aggs = ['bloom_agg(%s)' % col, 'bloom_agg(%s, %s, %s)' % (col, rng.choice(CAPS[2:]), rng.choice(FPRS)),
                'bloom_agg(%s, %s, %s, %s)' % (col, rng.choice(SIZES[:5]), rng.choice(HASHES), rng.choice(SEEDS)),
                'counting_bloom_agg(%s, %s, %s)' % (col, rng.choice(CAPS[2:]), rng.choice(FPRS)),
                'bloom_ngram_agg(t, %d)' % rng.choice([1, 3, 5]), 'bloom_token_agg(w)', 'bloom_ngram_agg(w)',
                'bloom_union_agg(bloom_empty(1000, 0.01) || %s)' % col,
                'bloom_intersect_agg(bloom_empty(256, 2, 1) || %s)' % col]
        agg = rng.choice(aggs)
        grp = rng.choice(['', 'grp', 'id % 50'])
        cond = rng.choice(['', 'WHERE id % 3 <> 0', 'WHERE id > 100'])
        if grp:
            sql = ('SELECT %s, md5((%s)::text) FROM big %s GROUP BY 1 ORDER BY 1' % (grp, agg, cond))
        else:
            sql = 'SELECT md5((%s)::text) FROM big %s' % (agg, cond)
        results = []
        for par in (False, True):
            if par:
                self.parallel_on()
            else:
                self.set('max_parallel_workers_per_gather', '0')
            rows, code = self.run(sql, oracle='parallel')
            if par and rows is not None and self.rng.random() < 0.2:
                plan, _ = self.run('EXPLAIN (COSTS OFF) ' + sql, oracle='parallel')
                if plan is not None:
                    txt = '\n'.join(r[0] for r in plan)
                    self.st.passed['parallel_plan_used' if 'Partial' in txt else 'parallel_plan_not_used'] += 1
            results.append((rows, code))
        self.parallel_off()
        (r0, c0), (r1, c1) = results
        if r0 is not None and r1 is not None:
            self.check('parallel_equals_serial', r0 == r1, 'parallel result differs from serial', sql)
        elif (c0 is None) != (c1 is None) and '08006' not in (c0, c1) and '57014' not in (c0, c1):
            self.check('parallel_equals_serial', False, 'serial %s, parallel %s' % (c0, c1), sql)

    # -- the rate oracle ------------------------------------------------------
    # columns of big: member expression, a non-member expression over g (never
    # a member), and probe casts that reach the same family
    RATE_COLS = {
        'i4': ('i4', '(g * 31 + 1)::int4', ['', '::int8']),
        'i8': ('i8', 'g::int8 * 1000003 + 1', ['']),
        't': ('t', "md5('nm' || g)", ['', '::varchar']),
        'n': ('n', 'g / 3.0 + 0.1', ['']),
        'u': ('u', "md5('nm' || g)::uuid", ['']),
    }
    RATE_PROBES = 12000

    def rate_build(self, c, cond):
        """(kind, SQL returning one filter f built from column c of big, its
        target rate or None, which rows are members) -- every way a filter is
        built: aggregates of every kind, sized and automatic, batch adds,
        unions and union aggregates, folds, intersections, round trips,
        removals, conversion."""
        rng = self.rng
        cap = rng.choice(['100', '1000', '5000', '20000', '100000'])
        fpr = rng.choice(['0.3', '0.1', '0.05', '0.01', '0.001'])
        scap = rng.choice(['1', '10', '100', '1000'])
        size, k, seed = rng.choice(SIZES[2:]), rng.choice(HASHES), rng.choice(SEEDS)
        factor = rng.choice(['1', '2', '4', '3'])
        ffpr = float(fpr)
        frm = 'FROM big WHERE %s' % cond
        grouped = 'FROM (SELECT {agg} AS f ' + frm + ' GROUP BY grp) q'
        opts = [
            ('bloom', 'SELECT bloom_agg(%s) %s' % (c, frm), 0.01, 'true'),
            ('bloom', 'SELECT bloom_agg(%s, %s, %s) %s' % (c, cap, fpr, frm), ffpr, 'true'),
            ('bloom', 'SELECT bloom_agg(%s, %s, %s, %s) %s' % (c, size, k, seed, frm), None, 'true'),
            ('bloom', 'SELECT bloom_fold(bloom_agg(%s, %s, %s), %s) %s' % (c, cap, fpr, factor, frm), ffpr, 'true'),
            ('bloom', 'SELECT bloom_add_all(bloom_empty(%s, %s), array_agg(%s)) %s' % (cap, fpr, c, frm), ffpr,
             'true'),
            ('bloom', 'SELECT (bloom_agg(%s, %s, %s))::text::bloom %s' % (c, cap, fpr, frm), ffpr, 'true'),
            ('bloom', 'SELECT bloom_agg(%s) | bloom_agg(%s) FILTER (WHERE id %% 2 = 0) %s' % (c, c, frm), 0.01,
             'true'),
            ('bloom', 'SELECT bloom_agg(%s, %s, %s) & bloom_agg(%s, %s, %s) FILTER (WHERE id %% 2 = 0) %s'
             % (c, cap, fpr, c, cap, fpr, frm), ffpr, 'id % 2 = 0'),
            ('bloom', 'SELECT bloom_union_agg(f) ' + grouped.replace('{agg}', 'bloom_agg(%s, %s, %s)' % (c, cap, fpr)),
             ffpr, 'true'),
            ('bloom', 'SELECT bloom_union_agg(f) ' + grouped.replace('{agg}', 'bloom_agg(%s)' % c), 0.01, 'true'),
            ('bloom', 'SELECT (counting_bloom_agg(%s, %s, %s))::bloom %s' % (c, cap, fpr, frm), None, 'true'),
            ('counting_bloom', 'SELECT counting_bloom_agg(%s, %s, %s) %s' % (c, cap, fpr, frm), ffpr, 'true'),
            ('counting_bloom', 'SELECT counting_bloom_agg(%s) %s' % (c, frm), 0.01, 'true'),
            ('counting_bloom', 'SELECT counting_bloom_add_all(counting_bloom_empty(%s, %s), array_agg(%s)) %s'
             % (cap, fpr, c, frm), ffpr, 'true'),
            ('counting_bloom', 'SELECT counting_bloom_remove_all(counting_bloom_agg(%s, %s, %s), '
                               'coalesce(array_agg(%s) FILTER (WHERE id %% 3 = 0), \'{}\')) %s'
             % (c, cap, fpr, c, frm), ffpr, 'id % 3 <> 0'),
            ('counting_bloom', 'SELECT counting_bloom_union_agg(f) '
             + grouped.replace('{agg}', 'counting_bloom_agg(%s, %s, %s)' % (c, cap, fpr)), ffpr, 'true'),
            ('scalable_bloom', 'SELECT scalable_bloom_agg(%s) %s' % (c, frm), 0.01, 'true'),
            ('scalable_bloom', 'SELECT scalable_bloom_agg(%s, %s, %s) %s' % (c, scap, fpr, frm), ffpr, 'true'),
            ('scalable_bloom', 'SELECT scalable_bloom_add_all(scalable_bloom_empty(%s, %s), array_agg(%s)) %s'
             % (scap, fpr, c, frm), ffpr, 'true'),
            ('scalable_bloom', 'SELECT (scalable_bloom_agg(%s, %s, %s))::text::scalable_bloom %s'
             % (c, scap, fpr, frm), ffpr, 'true'),
            ('scalable_bloom', 'SELECT scalable_bloom_union_agg(f) '
             + grouped.replace('{agg}', 'scalable_bloom_agg(%s, %s, %s)' % (c, scap, fpr)), ffpr, 'true'),
        ]
        return rng.choice(opts)

    def rate_measure(self, sql):
        """Run one measuring statement: (rows, code, warned)."""
        self.run('SET client_min_messages = warning', bloom=False)
        del self.conn.notices[:]
        rows, code = self.run(sql, oracle='rate')
        warned = any('over capacity' in n for n in self.conn.notices)
        del self.conn.notices[:]
        self.run('SET client_min_messages = error', bloom=False)
        return rows, code, warned

    @staticmethod
    def rate_tolerance(p, n):
        """4 standard deviations of a rate p measured over n probes, plus one probe."""
        p = min(max(p, 1.0 / n), 1.0)
        return 4.0 * math.sqrt(p * (1.0 - p) / n) + 1.0 / n

    def oracle_rate(self):
        """The promised rate: a filter built by any path, probed with
        RATE_PROBES non-members, answers "maybe" no more often than it
        promised -- twice its target (bloomset.full_filter warns beyond),
        unless the statement warned -- and as often as its own *_info
        estimate says; members are all found.  Sometimes built under a
        parallel plan as well: the two measured rates agree."""
        rng = self.rng
        col = rng.choice(sorted(self.RATE_COLS))
        c, nonmember, casts = self.RATE_COLS[col]
        cond = rng.choice(['true', 'id % 2 = 0', 'id <= 3000', 'id > 15000', 'id % 7 <> 3'])
        kind, build, target, members = self.rate_build(c, cond)
        cast = rng.choice(casts)
        prefix = {'bloom': 'bloom', 'counting_bloom': 'counting_bloom', 'scalable_bloom': 'scalable_bloom'}[kind]
        probe = rng.choice(['%s_contains(f, {v}%s)' % (prefix, cast), 'f @> {v}%s' % cast,
                            '%s_contains_any(f, ARRAY[{v}%s])' % (prefix, cast)])
        if kind == 'scalable_bloom':
            est = ('(SELECT 1 - exp(sum(ln(1 - least(estimated_fpr, 0.999999)))) FROM scalable_bloom_info(f))')
        else:
            est = '(%s_info(f)).estimated_fpr' % prefix
        sql = ('WITH ff AS MATERIALIZED (%s), nm AS (SELECT %s AS x FROM generate_series(1, %d) g) '
               'SELECT (SELECT count(*) FROM nm WHERE %s), (SELECT count(*) FROM nm), '
               '(SELECT count(*) FROM big WHERE %s AND %s AND %s IS NOT NULL AND NOT (%s)), %s FROM ff AS ff(f)'
               % (build, nonmember, self.RATE_PROBES, probe.format(v='x'), cond, members, c,
                  probe.format(v=c), est))
        plans = [False] + ([True] if rng.random() < 0.3 else [])
        measured = []                    # (rate, own estimate, warned) per plan
        for par in plans:
            if par:
                self.parallel_on()
            rows, code, warned = self.rate_measure(sql)
            if par:
                self.parallel_off()
            if not rows:
                if code:
                    self.st.skipped['rate_within_promise'] += 1
                return
            fp, n, fn, estimate = rows[0]
            rate = fp / float(n)
            self.st.passed['rate_filters_measured'] += 1
            self.check('rate_no_false_negatives', fn == 0, '%d members reported absent' % fn, sql)
            promise = None if target is None else min(2.0 * target, 1.0)
            if promise is not None:
                if warned:
                    self.st.passed['rate_warned'] += 1
                else:
                    self.check('rate_within_promise', rate <= promise + self.rate_tolerance(promise, n),
                               '%s: %d of %d non-members answered maybe (%.4f), promise %.4g (2 x target %.4g), '
                               'no warning' % (kind, fp, n, rate, promise, target), sql)
            estimate = None if estimate is None else float(estimate)
            if estimate is not None:
                self.check('rate_matches_estimate',
                           abs(rate - estimate) <= self.rate_tolerance(estimate, n) + 0.05 * estimate,
                           '%s: measured %.4f, its own estimate %.4f (%d probes)' % (kind, rate, estimate, n), sql)
            measured.append((rate, estimate if estimate is not None else rate, warned))
        if len(measured) < 2 or (measured[0][2] and measured[1][2]):
            return                       # over capacity on both plans: no rate promised
        # bloom and counting filters are bit-identical on both plans: the rates
        # differ by probe noise; a scalable filter's chain depends on the
        # order of insertion, so their own estimates may differ too
        (r0, e0, w0), (r1, e1, w1) = measured
        p = max(r0, r1)
        ok = abs(r0 - r1) <= math.sqrt(2.0) * self.rate_tolerance(p, self.RATE_PROBES) + abs(e0 - e1)
        if w0 != w1 and target is not None:
            # full on one plan only: a fault unless both keep the promise anyway
            ok = ok and p <= min(2.0 * target, 1.0) + self.rate_tolerance(min(2.0 * target, 1.0), self.RATE_PROBES)
        self.check('rate_parallel_equals_serial', ok,
                   '%s: serial %.4f (estimate %.4f%s), parallel %.4f (estimate %.4f%s)'
                   % (kind, r0, e0, ', warned' if w0 else '', r1, e1, ', warned' if w1 else ''), sql)

    def oracle_fast_hash(self):
        if not self.has_fast_hash:
            return
        rng = self.rng
        fam = rng.choice(['int2', 'int4', 'int8', 'text', 'varchar', 'bytea', 'ci', 'words', 'numeric', 'uuid'])
        seed = rng.choice(SEEDS)
        kind, b = self.build(fam, 'src')
        if ' FROM (' in b:
            b = 'bloom_agg(x)'
        sql = ('WITH src AS (SELECT id, x FROM v_%s) SELECT md5(string_agg(bloom_hash(x, %s)::text, \',\' ORDER BY id)),'
               ' md5((%s)::text) FROM src' % (fam, seed, b))
        res = []
        for v in ('on', 'off'):
            self.set('bloomset.fast_hash', v)
            rows, code = self.run(sql, oracle='fast_hash')
            res.append(rows)
        self.run('RESET bloomset.fast_hash', bloom=False)
        if res[0] is not None and res[1] is not None:
            self.check('fast_hash_on_equals_off', res[0] == res[1], 'fast_hash on %s / off %s' % tuple(res), sql)

    def filter_table(self, name, columns, storage):
        """(Re)create table name (columns, one of them f) with f stored as storage."""
        self.run('DROP TABLE IF EXISTS %s' % name, bloom=False)
        self.run('CREATE TABLE %s (%s)' % (name, columns), bloom=False)
        self.run('ALTER TABLE %s ALTER f SET STORAGE %s' % (name, storage), bloom=False)

    def oracle_batched(self):
        """The batched probe (a BloomProbe node over the scan) answers as the plain probe: random probes of a
        filter constant for the scan (init-plan, constant, correlated per outer row), NOT, other quals, LIMIT,
        random storage and cache budget, run with bloomset.batched_probe on and off.  The on-run's plan is
        counted (batched_plan_used / batched_plan_plain): the report gives the share that used the node."""
        rng = self.rng
        fam = self.fam()
        for _ in range(4):
            kind, b = self.build(fam, 'src')
            if kind == 'bloom' and ' FROM (' not in b:
                break
        if ' FROM (' in b:
            return
        storage = rng.choice(['EXTERNAL', 'EXTERNAL', 'EXTENDED', 'MAIN'])
        self.filter_table('fz_batched', 'k int, f %s' % kind, storage)
        for k in range(rng.choice([1, 1, 3])):
            _, code = self.run('INSERT INTO fz_batched WITH src AS (SELECT id, x FROM v_%s WHERE %s) SELECT %d, %s '
                               'FROM src' % (fam, self.subset(), k, b), oracle='batched')
            if code:
                return
        if rng.random() < 0.1:
            self.run('UPDATE fz_batched SET f = NULL WHERE k = 0', bloom=False)
        if kind == 'bloom' and rng.random() < 0.7:
            probe = rng.choice(['bloom_contains(f, x)', 'f @> x', 'bloom_contains(bloom_fold(f, 1), x)'])
        else:
            probe = self.probe(kind, fam)
        if rng.random() < 0.3:
            probe = 'NOT ' + probe
        source = rng.choice(['init', 'init', 'const', 'correlated', 'join'])
        if source == 'const':
            rows, code = self.run('SELECT f::text, length(f::text) FROM fz_batched WHERE k = 0', oracle='batched')
            if code or not rows or rows[0][0] is None or rows[0][1] > 200000:
                source = 'init'
            else:
                fsrc = '%s::%s' % (lit(rows[0][0]), kind)
        if source == 'init':
            fsrc = '(SELECT f FROM fz_batched WHERE k = 0)'
        if source in ('correlated', 'join'):
            fsrc = 'fz.f'
        cond = re.sub(r'\bf\b', lambda m: fsrc, probe)
        extra = rng.choice(['', '', ' AND id %% %d <> 0' % rng.choice([2, 3, 7]), ' AND x IS NOT NULL'])
        limit = rng.choice(['', '', ' LIMIT %d' % rng.choice([1, 5, 70, 200])])
        inner = 'SELECT id FROM v_%s WHERE %s%s%s' % (fam, cond, extra, limit)
        if source == 'correlated':
            sql = ('SELECT fz.k, (SELECT md5(string_agg(id::text, \',\')) || count(*) FROM (%s) s) '
                   'FROM fz_batched fz ORDER BY fz.k' % inner)
        elif source == 'join':
            # the filter from the outer side of a join (a parameterized
            # BloomProbe path under a nested loop, when the planner takes it)
            which = rng.choice(['fz.k = 0', 'fz.k = 0', 'fz.k >= 0'])
            sql = ('SELECT fz.k, md5(string_agg(v.id::text, \',\' ORDER BY v.id)), count(*) '
                   'FROM fz_batched fz JOIN v_%s v ON %s WHERE %s%s GROUP BY fz.k ORDER BY fz.k'
                   % (fam, which, re.sub(r'\bx\b', 'v.x', cond), extra.replace(' id ', ' v.id ').replace(' x ', ' v.x ')))
        else:
            sql = "SELECT md5(string_agg(id::text, ',')), count(*) FROM (%s) s" % inner
        budget = rng.choice([None, None, '0', "'64kB'"])
        if budget:
            self.set('bloomset.probe_cache_size', budget)
        results = []
        for v in ('on', 'off'):
            self.set('bloomset.batched_probe', v)
            if v == 'on':
                plan, _ = self.run('EXPLAIN (COSTS OFF) ' + sql, oracle='batched')
                if plan is not None:
                    used = any('BloomProbe' in r[0] for r in plan)
                    self.st.passed['batched_plan_used' if used else 'batched_plan_plain'] += 1
                    if source == 'join':
                        self.st.passed['batched_join_plan_used' if used else 'batched_join_plan_plain'] += 1
            results.append(self.run(sql, oracle='batched'))
        self.run('RESET bloomset.batched_probe', bloom=False)
        self.run('RESET bloomset.probe_cache_size', bloom=False)
        (r0, c0), (r1, c1) = results
        if r0 is not None and r1 is not None:
            self.check('batched_on_equals_off', r0 == r1, 'on %s / off %s' % (r0, r1), sql)
        elif c0 != c1 and '08006' not in (c0, c1) and '57014' not in (c0, c1):
            self.check('batched_on_equals_off', False, 'on %s / off %s' % (c0, c1), sql)
        else:
            self.st.skipped['batched_on_equals_off'] += 1

    def oracle_sliced(self):
        """Sliced answer = whole answer: a filter stored with a random storage (out of line uncompressed,
        compressed, in line), probed with bloomset.sliced_reads on and off."""
        rng = self.rng
        fam = self.fam()
        kind, b = self.build(fam, 'src')
        if ' FROM (' in b:
            return
        storage = rng.choice(['EXTERNAL', 'EXTERNAL', 'EXTENDED', 'MAIN'])
        self.filter_table('fz_sliced', 'f %s' % kind, storage)
        rows, code = self.run('INSERT INTO fz_sliced WITH src AS (SELECT id, x FROM v_%s WHERE %s) SELECT %s FROM src'
                              % (fam, self.subset(), b), oracle='sliced')
        if code:
            return
        sql = ("SELECT md5(string_agg(coalesce((%s)::text, 'null'), ',' ORDER BY id)), count(*) FROM v_%s, fz_sliced"
               % (self.probe(kind, fam), fam))
        res = []
        for v in ('on', 'off'):
            self.set('bloomset.sliced_reads', v)
            res.append(self.run(sql, oracle='sliced'))
        self.run('RESET bloomset.sliced_reads', bloom=False)
        self.check('sliced_equals_whole', res[0] == res[1],
                   'storage %s: sliced %s / whole %s' % (storage, res[0], res[1]), sql)

    def oracle_parquet(self):
        """Parquet filters (scheme 3): every member of a Parquet-encodable family is found, built by
        bloom_parquet_agg or by bloom_add_all into bloom_parquet_empty, and again after the export and
        import round trip (bloom_to_parquet / bloom_from_parquet), which gives the same filter back
        (float filters gain the canonical NaN and +0.0 on import: a superset, checked by members only;
        bloom_add_all of a NULL array, the array_agg of no rows, is NULL, and so is its round trip).
        Infinite dates and timestamps are left out (a 22008 error is their answer)."""
        rng = self.rng
        fam = rng.choice(sorted(PARQUET_FAMS))
        typ = PARQUET_FAMS[fam]
        cap, fpr = rng.choice(['10', '100', '1000', '100000']), rng.choice(['0.1', '0.01', '0.001'])
        finite = " AND x NOT IN ('infinity', '-infinity')" if fam in ('date', 'timestamp', 'timestamptz') else ''
        src = 'SELECT x FROM v_%s WHERE x IS NOT NULL AND (%s)%s' % (fam, self.subset(), finite)
        build = rng.choice(['SELECT bloom_parquet_agg(x, %s, %s) AS f FROM (%s) s' % (cap, fpr, src),
                            "SELECT bloom_add_all(bloom_parquet_empty(%s, %s, '%s'), array_agg(x)) AS f FROM (%s) s"
                            % (cap, fpr, typ, src),
                            "SELECT bloom_add_all(bloom_parquet_empty(%s, '%s'), array_agg(x)) AS f FROM (%s) s"
                            % (rng.choice(['32', '64', '1024', '65536']), typ, src)])
        q = ("WITH f AS (%s), g AS (SELECT f, bloom_from_parquet(bloom_to_parquet(f), '%s') AS g FROM f), "
             "m AS (%s) SELECT (SELECT count(*) FROM m, g WHERE NOT f @> x), "
             "(SELECT count(*) FROM m, g WHERE NOT g @> x), (SELECT coalesce(g = f, f IS NULL) OR %s FROM g)"
             % (build, typ, src, 'true' if fam in ('float4', 'float8') else 'false'))
        rows, code = self.run(q, oracle='parquet')
        if rows:
            self.check('parquet_members', rows[0][0] == 0 and rows[0][1] == 0,
                       'Parquet filter misses members: %s (built), %s (after export and import)'
                       % (rows[0][0], rows[0][1]), q)
            self.check('parquet_roundtrip', rows[0][2] is True, 'export and import changed the filter', q)

    def run_expecting(self, sql, codes, oracle):
        """Execute (autocommit) a statement whose answer may be one of the SQLSTATEs codes, say XX001
        for a corrupted stored row: (rows or None, sqlstate or None); any other error is counted as
        run() counts it."""
        self.st.bloom_statements += 1
        try:
            self.cur.execute(sql)
            return (self.cur.fetchall() if self.cur.description else []), None
        except self.pg.Error as e:
            if e.pgcode in codes and not self.conn.closed:
                self.st.codes[e.pgcode] += 1
                if e.pgcode.startswith('XX'):
                    self.st.xx_expected += 1    # a corrupted row the oracle made: the server logs it
                return None, e.pgcode
        self.st.bloom_statements -= 1
        return self.run(sql, oracle=oracle)

    def oracle_index(self):
        """The filter index (bloom_index_*): its answer for every key is the per-filter answer
        (bloom_contains over the chunk table; bloom_contains_any for bloom_index_lookup_any) after a
        build and after each of a few random appends (one filter, a replacement, a batch), removals
        and a refused filter of other parameters (22023); a copy with a structurally corrupted row
        (a stripe cut or lengthened, a slot map cut, a stripe, slot map or header deleted, a garbled
        header) answers XX001 or, when the lookup does not touch that row, the right ids."""
        rng = self.rng
        fam = self.fam()
        nchunk = rng.choice([1, 5, 40, 70, 150])
        cap, fpr = rng.choice(['10', '100', '1000']), rng.choice(['0.1', '0.01', '0.0001'])
        agg = rng.choice(['bloom_agg(x, %s, %s)' % (cap, fpr),
                          'bloom_agg(x, %s, %s, %s)' % (rng.choice(['32', '256', '4096']), rng.choice(HASHES),
                                                        rng.choice(SEEDS))])
        r = self.run
        r('DROP TABLE IF EXISTS fz_ichunk, fz_idx, fz_idx_broken', bloom=False)
        _, code = r('CREATE TABLE fz_ichunk AS SELECT (id %% %d)::bigint AS id, %s AS f FROM v_%s GROUP BY 1'
                    % (nchunk, agg, fam), oracle='index')
        if code:
            return
        _, code = r("SELECT bloom_index_create('fz_idx', 'SELECT id, f FROM fz_ichunk')", oracle='index')
        if code:
            return

        steps = []

        def compare(what):
            # the failure message says how the index came to be
            what = '%s (%d chunks of %s, steps: %s)' % (what, nchunk, agg, ', '.join(steps) or 'none')
            cond = self.subset()
            q = ("SELECT count(*) FROM (SELECT x FROM v_%s WHERE x IS NOT NULL AND (%s)) k WHERE "
                 "ARRAY(SELECT bloom_index_lookup('fz_idx', k.x) AS i ORDER BY i) IS DISTINCT FROM "
                 "ARRAY(SELECT id FROM fz_ichunk WHERE bloom_contains(f, k.x) ORDER BY id)" % (fam, cond))
            rows, code = r(q, oracle='index')
            if rows:
                self.check('index_equals_per_filter', rows[0][0] == 0,
                           '%s: %d keys answered otherwise than by bloom_contains' % (what, rows[0][0]), q)
            if fam not in ARRAY_FAMS:
                keys = 'ARRAY(SELECT x FROM v_%s WHERE %s)' % (fam, self.subset())
                q = ("SELECT ARRAY(SELECT bloom_index_lookup_any('fz_idx', %s) AS i ORDER BY i) IS NOT DISTINCT FROM "
                     "ARRAY(SELECT id FROM fz_ichunk WHERE bloom_contains_any(f, %s) ORDER BY id)" % (keys, keys))
                rows, code = r(q, oracle='index')
                if rows:
                    self.check('index_any_equals_per_filter', rows[0][0] is True,
                               '%s: bloom_index_lookup_any differs from bloom_contains_any' % what, q)

        compare('build')
        for step in range(rng.randrange(1, 4)):
            op = rng.choice(['one', 'replace', 'batch', 'remove', 'other'])
            steps.append(op)
            new = 'SELECT %s FROM v_%s WHERE %s' % (agg, fam, self.subset())
            if op == 'one':
                nid = nchunk + 100 + step
                sql = ("WITH n AS (INSERT INTO fz_ichunk SELECT %d, (%s) RETURNING id, f) "
                       "SELECT bloom_index_add('fz_idx', id, f) FROM n" % (nid, new))
            elif op == 'replace':
                nid = rng.randrange(nchunk)
                sql = ("WITH n AS (UPDATE fz_ichunk SET f = (%s) WHERE id = %d RETURNING id, f) "
                       "SELECT bloom_index_add('fz_idx', id, f) FROM n" % (new, nid))
            elif op == 'batch':
                lo = rng.randrange(nchunk + 1)
                n = rng.choice([1, 3, 64, 70])
                r('DELETE FROM fz_ichunk WHERE id >= %d AND id < %d' % (lo, lo + n), bloom=False)
                r('INSERT INTO fz_ichunk SELECT %d + (id %% %d), %s FROM v_%s WHERE %s GROUP BY 1'
                  % (lo, n, agg, fam, self.subset()), oracle='index')
                # ids of the range the batch does not bring back are removed in the same statement
                sql = ("SELECT bloom_index_add('fz_idx', 'SELECT id, f FROM fz_ichunk WHERE id >= %d AND id < %d'), "
                       "(SELECT count(*) FILTER (WHERE bloom_index_remove('fz_idx', g)) FROM generate_series(%d, %d) g "
                       "WHERE g NOT IN (SELECT id FROM fz_ichunk))" % (lo, lo + n, lo, lo + n - 1))
            elif op == 'remove':
                nid = rng.randrange(nchunk + 2)
                r('DELETE FROM fz_ichunk WHERE id = %d' % nid, bloom=False)
                sql = "SELECT bloom_index_remove('fz_idx', %d)" % nid
            else:
                other = rng.choice(['bloom_agg(x, 7, 0.2)', 'bloom_agg(x, 100, 3, 1)',
                                    'bloom_agg(x::text || \'-\', %s, %s)' % (cap, fpr)])
                sql = ("SELECT bloom_index_add('fz_idx', 99999, (SELECT %s FROM v_%s WHERE x IS NOT NULL))"
                       % (other, fam))
                rows, code = r(sql, oracle='index')
                steps[-1] = 'other %s: %s' % (other, code or 'accepted')
                if code is None:
                    # the same parameters after all (a filter nothing was added to fits any family);
                    # a second such step replaces the first one's filter of that id, as in the index
                    r("DELETE FROM fz_ichunk WHERE id = 99999", bloom=False)
                    r("INSERT INTO fz_ichunk SELECT 99999, (SELECT %s FROM v_%s WHERE x IS NOT NULL)" % (other, fam),
                      bloom=False)
                else:
                    self.check('index_refuses_other_parameters', code == '22023',
                               'a filter of other parameters gave %s, not 22023' % code, sql)
                compare('after %s' % op)
                continue
            rows, code = r(sql, oracle='index')
            if code:
                # the chunk table changed but the index did not: start over next time
                return
            compare('after %s' % op)
        if rng.random() < 0.5:
            r('CREATE TABLE fz_idx_broken AS SELECT * FROM fz_idx', bloom=False)
            r('ALTER TABLE fz_idx_broken ADD PRIMARY KEY (blk, seg)', bloom=False)
            seg = rng.randrange(max(1, (nchunk + 63) // 64))
            corrupt = rng.choice([
                "UPDATE fz_idx_broken SET bits = substr(bits, 1, %d) WHERE blk = 0 AND seg = %d"
                % (rng.randrange(2048), seg),
                "UPDATE fz_idx_broken SET bits = bits || '\\x00'::bytea WHERE blk >= 0 AND seg = %d" % seg,
                "UPDATE fz_idx_broken SET ids = ids[1:%d] WHERE blk = -1 AND seg = %d" % (rng.randrange(64), seg),
                "UPDATE fz_idx_broken SET ids = ARRAY[ids] WHERE blk = -1 AND seg = %d" % seg,
                "DELETE FROM fz_idx_broken WHERE blk = %d AND seg = %d" % (rng.randrange(3), seg),
                "DELETE FROM fz_idx_broken WHERE blk = -1 AND seg = %d" % seg,
                "DELETE FROM fz_idx_broken WHERE blk = -1 AND seg = -1",
                "UPDATE fz_idx_broken SET bits = overlay(bits PLACING '\\xff'::bytea FROM %d) "
                "WHERE blk = -1 AND seg = -1" % rng.choice([1, 2, 3, 4, 13, 37]),
                "UPDATE fz_idx_broken SET bits = substr(bits, 1, 40) WHERE blk = -1 AND seg = -1"])
            r(corrupt, bloom=False)
            cond = self.subset()
            q = ("SELECT count(*) FROM (SELECT x FROM v_%s WHERE x IS NOT NULL AND (%s)) k WHERE "
                 "ARRAY(SELECT bloom_index_lookup('fz_idx_broken', k.x) AS i ORDER BY i) IS DISTINCT FROM "
                 "ARRAY(SELECT id FROM fz_ichunk WHERE bloom_contains(f, k.x) ORDER BY id)" % (fam, cond))
            rows, code = self.run_expecting(q, ('XX001',), 'index_corrupted')
            if rows:
                self.check('index_corrupted_row_clear_error', rows[0][0] == 0,
                           '%s: %d keys answered wrongly instead of XX001' % (corrupt, rows[0][0]), q)
            elif code == 'XX001':
                self.st.passed['index_corrupted_row_clear_error'] += 1

    SKIP_FAMS = ['int2', 'int4', 'int8', 'text', 'varchar', 'bytea', 'uuid', 'date', 'timestamp', 'timestamptz',
                 'numeric']

    def skip_key(self, fam, typ):
        """a key for a bloomskip query: a stored value (a literal or a sub-select, so both plan-time
        constants and run-time parameters reach the index), an absent one, another integer type, NULL"""
        rng = self.rng
        i = rng.choice([rng.randrange(1, NROWS + 10), NROWS + 50, 1060, rng.randrange(1, 10), 5000])
        c = rng.random()
        if c < 0.4:
            rows, _ = self.run('SELECT x::text FROM v_%s WHERE id = %d' % (fam, i), bloom=False)
            v = rows[0][0] if rows else None
            return 'NULL::%s' % typ if v is None else '%s::%s' % (lit(v), typ)
        if c < 0.55 and fam in ('int2', 'int4', 'int8'):
            return '%s::%s' % (rng.choice(['1', '-15000', '7819', '1000000007', '0', '32767', '2147483647']),
                               rng.choice(['int2', 'int4', 'int8']) if rng.random() < 0.5 else typ)
        if c < 0.6:
            return 'NULL::%s' % typ
        return '(SELECT x FROM v_%s WHERE id = %d)' % (fam, i)

    def oracle_skip(self):
        """bloomskip (when the access method exists): over a random small table of one key family
        (fillfactor, row width, index options, index built before or after the rows), after random
        INSERT / UPDATE / DELETE / VACUUM / REINDEX / TRUNCATE steps, the bitmap plan on the index gives
        exactly the rows of the sequential scan for =, cross-type =, = ANY, IN, NULL keys and a join;
        the share of queries that used the index is counted (skip_plan_used / skip_plan_seq)."""
        rng = self.rng
        r = self.run
        fam = rng.choice(self.SKIP_FAMS)
        typ = FAMILIES[fam][0]
        r('DROP TABLE IF EXISTS fz_skip', bloom=False)
        r('CREATE TABLE fz_skip (id int, k %s, pad text) WITH (fillfactor = %d)'
          % (typ, rng.choice([10, 50, 100])), bloom=False)
        self.skip_next = 1
        pad = rng.choice([0, 10, 100, 800])

        def insert(n):
            mult = rng.choice([1, 7, 13])
            sql = ("INSERT INTO fz_skip SELECT g, v.x, repeat('p', %d) FROM generate_series(%d, %d) g "
                   "JOIN v_%s v ON v.id = 1 + (g * %d) %% %d" % (pad, self.skip_next, self.skip_next + n - 1, fam,
                                                               mult, rng.choice([NROWS + 60, 30, 5, 1100])))
            self.skip_next += n
            return r(sql, oracle='skip')

        opts = rng.choice(['', '', ' WITH (pages_per_range = %d)' % rng.choice([1, 2, 4, 16, 128]),
                           ' WITH (false_positive_rate = %s)' % rng.choice(['0.5', '0.1', '0.01', '0.0001']),
                           ' WITH (pages_per_range = %d, false_positive_rate = %s)'
                           % (rng.choice([1, 3, 8]), rng.choice(['0.3', '0.01']))])
        create = 'CREATE INDEX fz_skip_i ON fz_skip USING %s (k)' % SKIP_AM
        before = rng.random() < 0.3
        if not before:
            insert(rng.choice([0, 10, 300, 1200]))
        _, code = r(create + opts, oracle='skip')
        if code and opts:
            _, code = r(create, oracle='skip')
        if code:
            self.st.skipped['skip_index_equals_seqscan'] += 1
            return
        if before:
            insert(rng.choice([10, 300, 1200]))
        r('ANALYZE fz_skip', bloom=False)
        for step in range(rng.randrange(1, 4)):
            self.skip_compare(fam, typ)
            op = rng.choice(['insert', 'insert', 'update', 'update_pad', 'delete', 'vacuum', 'reindex', 'truncate'])
            if op == 'insert':
                insert(rng.choice([1, 50, 1000]))
            elif op == 'update':
                r('UPDATE fz_skip SET k = %s WHERE id %% %d = %d' % (self.skip_key(fam, typ), rng.choice([2, 7, 50]),
                                                                     rng.randrange(2)), oracle='skip')
            elif op == 'update_pad':
                r("UPDATE fz_skip SET pad = pad || 'q' WHERE id %% %d = 0" % rng.choice([2, 3, 10]), oracle='skip')
            elif op == 'delete':
                r('DELETE FROM fz_skip WHERE id %% %d = %d' % (rng.choice([2, 3, 10]), rng.randrange(2)),
                  oracle='skip')
            elif op == 'vacuum':
                r(rng.choice(['VACUUM fz_skip', 'VACUUM fz_skip', 'VACUUM (ANALYZE) fz_skip', 'VACUUM FULL fz_skip']),
                  oracle='skip')
            elif op == 'reindex':
                r('REINDEX INDEX fz_skip_i', oracle='skip')
            else:
                r(rng.choice(['TRUNCATE fz_skip', 'DELETE FROM fz_skip']), oracle='skip')
                insert(rng.choice([0, 20, 500]))
        self.skip_compare(fam, typ)
        names = {fn[0] for fn in self.funcs}
        if 'bloomskip_info' in names:
            r("SELECT * FROM bloomskip_info('fz_skip_i')", oracle='skip')
        if 'bloomskip_check' in names:
            # the number of visible rows whose key the index does not find in their range
            sql = "SELECT bloomskip_check('fz_skip_i')"
            rows, code = r(sql, oracle='skip')
            if rows:
                self.check('skip_check_clean', rows[0][0] == 0, 'bloomskip_check: %s' % rows[0][0], sql)
        if 'bloomskip_range_filter' in names and 'bloomskip_info' in names:
            # every visible row's key is in its range's filter, rebuilt as a bloom value
            # (the open ranges have no filter: a scan returns them whole)
            sql = ("SELECT count(*) FROM fz_skip s, bloomskip_info('fz_skip_i') i, "
                   "LATERAL (SELECT (s.ctid::text::point)[0]::bigint / i.pages_per_range AS r) x "
                   "WHERE s.k IS NOT NULL AND NOT bloom_contains(CASE WHEN x.r < i.summarized_ranges "
                   "THEN bloomskip_range_filter('fz_skip_i', x.r) END, s.k)")
            rows, code = r(sql, oracle='skip')
            if rows:
                self.check('skip_range_filter_no_false_negatives', rows[0][0] == 0,
                           '%d rows not in their range\'s filter' % rows[0][0], sql)
            else:
                self.st.skipped['skip_range_filter_no_false_negatives'] += 1

    SKIP_WORDS = ['GET', 'post', 'Error', 'ERROR', 'timeout', 'user', 'Séance', 'ΣΑΣ', 'İstanbul',
                  '\u212Aelvin', 'naïve', 'a.b', '100%', 'x_y', 'back\\slash', '(paren)', '[br]', 'Quokka']

    def skip_line(self):
        """a random log line: words in mixed case, numbers, hex, metacharacters, non-ASCII"""
        rng = self.rng
        n = rng.randrange(0, 9)
        return ' '.join(rng.choice(self.SKIP_WORDS) if rng.random() < 0.6 else
                        ('%x' % rng.randrange(16 ** rng.randrange(1, 9)) if rng.random() < 0.5
                         else str(rng.randrange(100000))) for _ in range(n))

    def skip_regex(self, s):
        """a regular expression built around fragments of s: escaped literals joined by operators,
        and hostile shapes (empty, huge, invalid, options, catastrophic backtracking)"""
        rng = self.rng

        def esc(t):
            return re.sub(r'([.*+?^${}()|\[\]\\])', r'\\\1', t)

        def frag():
            if not s:
                return rng.choice(['a', 'Quokka', ''])
            i = rng.randrange(len(s))
            return esc(s[i:i + rng.randrange(1, 9)])
        c = rng.random()
        if c < 0.06:
            return rng.choice(['', '(', 'a{2,1}', '[z-a]', '\\', '(?z)a', '*a', 'a**', '(?x) Quokka # c',
                               '(a*)*b' * rng.randrange(1, 4), '(a|aa)+$', '\\1(a)', '***=a.b', '***:(?i)quokka',
                               '(?q)a.b*', '[[:alpha:]]+\\d', 'x' * rng.choice([300, 5000]), '(' * 200 + 'a' + ')' * 200,
                               '(a|b)' * 500 + 'Quokka', '\\x51uokka', '\\mQuokka\\M', 'a^b', '$^'])
        ops = ['', '.*', '\\d+', '|', '(x)?', '[ab]?', '+', '{1,3}', '\\s', '.', '?', '*', '(?=a)', '[^q]']
        out = frag()
        for _ in range(rng.randrange(0, 4)):
            op = rng.choice(ops)
            if op in ('+', '{1,3}', '?', '*') and rng.random() < 0.5:
                out = '(' + out + ')' + op
            else:
                out += op
            out += frag()
        if rng.random() < 0.2:
            out = rng.choice(['^', '(?i)', '(?c)', '(?:']) + out + (')' if out and rng.random() < 0 else '')
        return out

    def oracle_skip_pattern(self):
        """bloomskip's n-gram classes (when they exist): over a table of random log lines, the bitmap
        plan on a text_ngram_bloomskip_ops or text_ngram_ci_bloomskip_ops index gives exactly the
        rows (or the error) of the sequential scan for LIKE, ILIKE, ~, ~*, SIMILAR TO and = ANY of
        patterns, random and hostile, under a statement_timeout"""
        rng = self.rng
        r = self.run
        cls = rng.choice(['text_ngram_bloomskip_ops', 'text_ngram_ci_bloomskip_ops'])
        if cls not in self.skip_classes:
            self.st.skipped['skip_pattern_equals_seqscan'] += 1
            return
        r('DROP TABLE IF EXISTS fz_skip_t', bloom=False)
        r('CREATE TABLE fz_skip_t (id int, t text)', bloom=False)
        lines = [self.skip_line() for _ in range(rng.choice([50, 400, 2000]))]
        r('INSERT INTO fz_skip_t SELECT g, (%s::text[])[g] FROM generate_series(1, %d) g'
          % (lit('{' + ','.join('"%s"' % l.replace('\\', '\\\\').replace('"', '\\"') for l in lines) + '}'),
             len(lines)), bloom=False)
        opts = rng.choice(['', '', ' (n = %d)' % rng.choice([1, 2, 3, 4, 5])])
        _, code = r('CREATE INDEX fz_skip_ti ON fz_skip_t USING %s (t %s%s) WITH (pages_per_range = %d)'
                    % (SKIP_AM, cls, opts, rng.choice([1, 2, 4])), oracle='skip_pattern')
        if code:
            self.st.skipped['skip_pattern_equals_seqscan'] += 1
            return
        if rng.random() < 0.5:
            r('INSERT INTO fz_skip_t SELECT g, %s FROM generate_series(10001, 10050) g'
              % lit(self.skip_line()), oracle='skip_pattern')
        r('ANALYZE fz_skip_t', bloom=False)
        ops = (['ILIKE', '~*'] if 'ci' in cls else ['LIKE', '~', '~*', 'SIMILAR TO'])
        for _ in range(rng.randrange(2, 7)):
            op = rng.choice(ops)
            s = rng.choice(lines)
            if op in ('LIKE', 'ILIKE', 'SIMILAR TO'):
                i = rng.randrange(len(s) + 1)
                pat = rng.choice(['%', '', '_']) + s[i:i + rng.randrange(0, 12)] + rng.choice(['%', '', '_%'])
                if rng.random() < 0.3:
                    pat = pat.swapcase()
                if rng.random() < 0.05:
                    pat = rng.choice(['\\', '%\\', 'a' * 3000 + '%', '%' * 50])
            else:
                pat = self.skip_regex(s)
                if rng.random() < 0.2:
                    pat = pat.swapcase()
            if rng.random() < 0.15:
                cond = 't %s ANY (ARRAY[%s, %s])' % ('~~' if op == 'LIKE' else '~~*' if op == 'ILIKE' else
                                                    op if op != 'SIMILAR TO' else '~', lit(pat),
                                                    lit(self.skip_regex(rng.choice(lines)) if op in ('~', '~*')
                                                        else '%' + rng.choice(lines)[:5] + '%'))
            else:
                cond = 't %s %s' % (op, lit(pat))
            self.skip_pattern_compare(cond)

    def skip_pattern_compare(self, cond):
        sql = "SELECT count(*), md5(string_agg(id::text, ',' ORDER BY id)) FROM fz_skip_t WHERE %s" % cond
        res = []
        self.set('statement_timeout', "'2s'")
        for mode in ('index', 'seq'):
            if mode == 'index':
                self.set('enable_seqscan', 'off')
                self.set('enable_indexscan', 'off')
                self.set('enable_bitmapscan', 'on')
                plan, _ = self.run('EXPLAIN (COSTS OFF) ' + sql, oracle='skip_pattern')
                if plan is not None:
                    used = any('fz_skip_ti' in p[0] for p in plan)
                    self.st.passed['skip_pattern_plan_used' if used else 'skip_pattern_plan_seq'] += 1
            else:
                self.set('enable_seqscan', 'on')
                self.set('enable_bitmapscan', 'off')
            res.append(self.run(sql, oracle='skip_pattern'))
        for name in ('enable_seqscan', 'enable_indexscan', 'enable_bitmapscan', 'statement_timeout'):
            self.run('RESET %s' % name, bloom=False)
        (r0, c0), (r1, c1) = res
        if r0 is not None and r1 is not None:
            self.check('skip_pattern_equals_seqscan', r0 == r1, 'index %s / seq scan %s' % (r0, r1), sql)
        elif c0 != c1 and '08006' not in (c0, c1) and '57014' not in (c0, c1):
            self.check('skip_pattern_equals_seqscan', False, 'index %s / seq scan %s' % (c0, c1), sql)
        elif c0 == c1 and c0 not in ('08006', '57014'):
            self.st.passed['skip_pattern_same_error'] += 1
        else:
            self.st.skipped['skip_pattern_equals_seqscan'] += 1

    def skip_elem(self, typ):
        """one random element of an array of typ, as a SQL literal: few distinct values (duplicates
        across rows and inside an array), NULL now and then, numerics in several scales"""
        rng = self.rng
        if rng.random() < 0.05:
            return 'NULL'
        v = rng.randrange(rng.choice([3, 30, 3000]))
        if typ == 'text':
            return lit(rng.choice(['t', 'tag:', '', 'Quokka ']) + str(v))
        if typ == 'numeric':
            return rng.choice([str(v), '%d.0' % v, '%d.000' % v, '-%d.5' % v])
        if typ == 'uuid':
            return "md5('%d')::uuid" % v
        if typ == 'date':
            return "date '2024-01-01' + %d" % v
        return str(v if rng.random() < 0.9 else -v)

    def skip_array(self, typ):
        """a random array of typ: empty, of NULLs, with duplicates, or huge; 2-D now and then"""
        rng = self.rng
        c = rng.random()
        if c < 0.05:
            return "'{}'::%s[]" % typ
        n = rng.choice([1, 2, 3, 5]) if c < 0.97 else rng.choice([300, 3000])
        if rng.random() < 0.03:
            e = [self.skip_elem(typ) for _ in range(4)]
            return 'ARRAY[[%s, %s], [%s, %s]]::%s[]' % (e[0], e[1], e[2], e[3], typ)
        return 'ARRAY[%s]::%s[]' % (', '.join(self.skip_elem(typ) for _ in range(n)), typ)

    def skip_doc(self, depth=0):
        """a random jsonb document as text: nested objects and arrays, numbers in several scales,
        json nulls, duplicate keys (jsonb keeps the last), top-level scalars and arrays"""
        rng = self.rng
        c = rng.random()
        if depth > 6 or c < 0.3:
            v = rng.randrange(rng.choice([3, 40]))
            return rng.choice(['%d' % v, '%d.0' % v, '-%d' % v, '"k%d"' % v, '"%d"' % v, 'true', 'false',
                               'null', '""', '1e2', '100'])
        if c < 0.5:
            return '[' + ', '.join(self.skip_doc(depth + 1) for _ in range(rng.choice([0, 1, 2, 4]))) + ']'
        keys = ['"k%d"' % rng.randrange(rng.choice([4, 30])) for _ in range(rng.choice([0, 1, 2, 4]))]
        return '{' + ', '.join('%s: %s' % (k, self.skip_doc(depth + 1)) for k in keys) + '}'

    def oracle_skip_collection(self):
        """bloomskip's array and jsonb classes (when they exist): over random arrays (NULL elements,
        empty, huge, duplicates) or random documents (deep nesting, duplicate keys, nulls), the
        bitmap plan on an array_bloomskip_ops or jsonb_bloomskip_ops index gives exactly the rows of
        the sequential scan for @>, &&, <@, = and ?, ?|, ?&, @>, @?, @@"""
        rng = self.rng
        r = self.run
        is_json = rng.random() < 0.5
        cls = 'jsonb_bloomskip_ops' if is_json else 'array_bloomskip_ops'
        if cls not in self.skip_classes:
            self.st.skipped['skip_collection_equals_seqscan'] += 1
            return
        typ = 'jsonb' if is_json else rng.choice(['int4', 'int8', 'int2', 'text', 'numeric', 'uuid', 'date'])
        gen = self.skip_doc if is_json else (lambda: self.skip_array(typ))
        r('DROP TABLE IF EXISTS fz_skip_c', bloom=False)
        r('CREATE TABLE fz_skip_c (id int, v %s)' % (typ if is_json else typ + '[]'), bloom=False)
        rows = rng.choice([50, 400, 1500])
        vals = [('NULL' if rng.random() < 0.03 else (lit(gen()) + '::jsonb' if is_json else gen()))
                for _ in range(rows)]
        for i in range(0, rows, 200):
            r('INSERT INTO fz_skip_c VALUES %s' % ', '.join('(%d, %s)' % (i + j, v) for j, v in
                                                         enumerate(vals[i:i + 200])), bloom=False)
        _, code = r('CREATE INDEX fz_skip_ci ON fz_skip_c USING %s (v %s) WITH (pages_per_range = %d)'
                    % (SKIP_AM, cls, rng.choice([1, 2, 4])), oracle='skip_collection')
        if code:
            self.st.skipped['skip_collection_equals_seqscan'] += 1
            return
        if rng.random() < 0.5:
            r('INSERT INTO fz_skip_c SELECT g, %s FROM generate_series(10001, 10050) g'
              % (lit(gen()) + '::jsonb' if is_json else gen()), oracle='skip_collection')
        r('ANALYZE fz_skip_c', bloom=False)
        for _ in range(rng.randrange(2, 7)):
            if is_json:
                op = rng.choice(['?', '?|', '?&', '@>', '@>', '@?', '@@'])
                if op == '?':
                    arg = lit(rng.choice(['k%d' % rng.randrange(30), '', '1']))
                elif op in ('?|', '?&'):
                    arg = 'ARRAY[%s]::text[]' % ', '.join(rng.choice(["'k%d'" % rng.randrange(30), 'NULL'])
                                                         for _ in range(rng.choice([0, 1, 2, 4])))
                elif op == '@>':
                    src = vals[rng.randrange(rows)]
                    arg = src if rng.random() < 0.4 and src != 'NULL' else lit(self.skip_doc(rng.choice([2, 4]))) + '::jsonb'
                else:
                    arg = lit(rng.choice(['$.k%d' % rng.randrange(30), '$.k1 == 1', '$.* ? (@ == "k2")',
                                          'exists($.k3.k1)', '$.k0[*] == 2'])) + '::jsonpath'
            else:
                op = rng.choice(['@>', '@>', '&&', '<@', '='])
                arg = self.skip_array(typ)
                if op == '=' and rng.random() < 0.6:
                    arg = vals[rng.randrange(rows)]
                    if arg == 'NULL':
                        arg = "'{}'::%s[]" % typ
            self.skip_collection_compare('v %s %s' % (op, arg))

    def skip_collection_compare(self, cond):
        sql = "SELECT count(*), md5(string_agg(id::text, ',' ORDER BY id)) FROM fz_skip_c WHERE %s" % cond
        res = []
        self.set('statement_timeout', "'5s'")
        for mode in ('index', 'seq'):
            if mode == 'index':
                self.set('enable_seqscan', 'off')
                self.set('enable_indexscan', 'off')
                self.set('enable_bitmapscan', 'on')
                plan, _ = self.run('EXPLAIN (COSTS OFF) ' + sql, oracle='skip_collection')
                if plan is not None:
                    used = any('fz_skip_ci' in p[0] for p in plan)
                    self.st.passed['skip_collection_plan_used' if used else 'skip_collection_plan_seq'] += 1
            else:
                self.set('enable_seqscan', 'on')
                self.set('enable_bitmapscan', 'off')
            res.append(self.run(sql, oracle='skip_collection'))
        for name in ('enable_seqscan', 'enable_indexscan', 'enable_bitmapscan', 'statement_timeout'):
            self.run('RESET %s' % name, bloom=False)
        (r0, c0), (r1, c1) = res
        if r0 is not None and r1 is not None:
            self.check('skip_collection_equals_seqscan', r0 == r1, 'index %s / seq scan %s' % (r0, r1), sql)
        elif c0 != c1 and '08006' not in (c0, c1) and '57014' not in (c0, c1):
            self.check('skip_collection_equals_seqscan', False, 'index %s / seq scan %s' % (c0, c1), sql)
        elif c0 == c1 and c0 not in ('08006', '57014'):
            self.st.passed['skip_collection_same_error'] += 1
        else:
            self.st.skipped['skip_collection_equals_seqscan'] += 1

    def skip_compare(self, fam, typ):
        rng = self.rng
        form = rng.choice(['eq', 'eq', 'any', 'in', 'join', 'and'])
        if form == 'eq':
            cond = 'k = %s' % self.skip_key(fam, typ)
        elif form == 'any':
            cond = 'k = ANY (ARRAY[%s]::%s[])' % (', '.join(self.skip_key(fam, typ) for _ in range(rng.choice([1, 3, 10]))),
                                               typ)
        elif form == 'in':
            cond = 'k IN (%s)' % ', '.join(self.skip_key(fam, typ) for _ in range(rng.choice([2, 5])))
        elif form == 'and':
            cond = 'k = %s AND id %% 2 = 0' % self.skip_key(fam, typ)
        else:
            cond = None
        if cond:
            sql = "SELECT count(*), md5(string_agg(id::text, ',' ORDER BY id)) FROM fz_skip WHERE %s" % cond
        else:
            keys = ', '.join('(%s)' % self.skip_key(fam, typ) for _ in range(rng.choice([1, 3])))
            sql = ("SELECT count(*), md5(string_agg(s.id::text, ',' ORDER BY s.id)) FROM (VALUES %s) q(v) "
                   "JOIN fz_skip s ON s.k = q.v" % keys)
        res = []
        for mode in ('index', 'seq'):
            if mode == 'index':
                self.set('enable_seqscan', 'off')
                self.set('enable_indexscan', 'off')
                self.set('enable_bitmapscan', 'on')
                plan, _ = self.run('EXPLAIN (COSTS OFF) ' + sql, oracle='skip')
                if plan is not None:
                    used = any('fz_skip_i' in p[0] for p in plan)
                    self.st.passed['skip_plan_used' if used else 'skip_plan_seq'] += 1
            else:
                self.set('enable_seqscan', 'on')
                self.set('enable_bitmapscan', 'off')
            res.append(self.run(sql, oracle='skip'))
        for name in ('enable_seqscan', 'enable_indexscan', 'enable_bitmapscan'):
            self.run('RESET %s' % name, bloom=False)
        (r0, c0), (r1, c1) = res
        if r0 is not None and r1 is not None:
            self.check('skip_index_equals_seqscan', r0 == r1, 'index %s / seq scan %s' % (r0, r1), sql)
        elif c0 != c1 and '08006' not in (c0, c1) and '57014' not in (c0, c1):
            self.check('skip_index_equals_seqscan', False, 'index %s / seq scan %s' % (c0, c1), sql)
        else:
            self.st.skipped['skip_index_equals_seqscan'] += 1

    def oracle_prepared(self):
        rng = self.rng
        fam = self.fam(exclude=('ci',))
        typ = FAMILIES[fam][0].split(' COLLATE')[0]
        self.prep_n += 1
        name = 'p%d' % self.prep_n
        c = rng.random()
        # EXECUTE takes no subqueries: parameters are literals fetched first
        rows, code = self.run('SELECT x::text FROM v_%s WHERE id IN (%d, %d, %d, %d) ORDER BY id' % (
            fam, rng.randrange(1, NROWS + 8), rng.randrange(1, NROWS + 8), NROWS + 50, NROWS + 1), bloom=False)
        vals = ['NULL' if r[0] is None else lit(r[0]) for r in rows or []] or ['NULL']
        if c < 0.4 and self.texts['bloom']:
            body = ('SELECT count(*) FILTER (WHERE bloom_contains($1, x)), count(*) FILTER (WHERE $1 @> x), '
                    'md5(($1 || $2)::text), bloom_contains($1, $2), bloom_contains_any($1, ARRAY[$2]) FROM v_%s'
                    % fam)
            ptypes = 'bloom, %s' % typ
            argsets = []
            for _ in range(2):
                t = rng.choice(self.texts_by_fam.get(fam) or self.texts['bloom']) if rng.random() < 0.85 \
                    else rng.choice(self.texts['bloom'])
                if rng.random() < 0.2:
                    t = self.mutate_text(t)
                argsets.append((lit(t), rng.choice(vals)))
        elif c < 0.7:
            body = ('SELECT count(*), sum(v.id) FROM v_%s v, fpool p WHERE p.fam = $1 AND p.f @> v.x AND v.id > $2'
                    % fam)
            ptypes = 'text, int'
            argsets = [(lit(fam), str(rng.randrange(0, 100))) for _ in range(2)]
        else:
            body = ('SELECT md5(bloom_agg(x, $1, $2)::text), md5(counting_bloom_agg(x, $1, $2)::text), '
                    'bloom_contains(bloom_agg(x, $1, $2), $3) FROM v_%s' % fam)
            ptypes = 'bigint, float8, %s' % typ
            argsets = [(rng.choice(CAPS), rng.choice(FPRS + BAD_FPRS[:3]), rng.choice(vals)) for _ in range(2)]
        _, code = self.run('PREPARE %s (%s) AS %s' % (name, ptypes, body), oracle='prepared')
        if code:
            return
        for args in argsets:
            ex = 'EXECUTE %s (%s)' % (name, ', '.join(args))
            res = []
            for mode in ('force_custom_plan', 'force_generic_plan', 'force_custom_plan'):
                self.set('plan_cache_mode', mode)
                rows, code = self.run(ex, oracle='prepared')
                res.append((rows, code))
            if all(r[0] is not None for r in res):
                self.check('generic_equals_custom', res[0][0] == res[1][0] == res[2][0],
                           'custom %s / generic %s' % (res[0][0], res[1][0]), body + '; ' + ex)
            elif len(set(r[1] for r in res)) > 1 and not any(r[1] in ('57014', '08006') for r in res):
                if all(r[0] is None and r[1] and r[1].startswith('22') for r in res):
                    # every plan fails on bad input data, each on another bad
                    # value: a custom plan folds the parameter expressions at
                    # plan time, a generic one meets a row's value first.
                    # Which is reported is evaluation order, as for any type
                    # (SELECT x::timestamptz, $1::timestamptz FROM t).
                    self.st.skipped['generic_equals_custom'] += 1
                else:
                    self.check('generic_equals_custom', False, 'error codes %s' % [r[1] for r in res],
                               body + '; ' + ex)
        self.run('RESET plan_cache_mode', bloom=False)
        self.run('DEALLOCATE %s' % name, bloom=False)

    def oracle_null_sizing(self):
        """NULL sizing arguments: every aggregate treats them alike (bloom_agg raises 22004)."""
        rng = self.rng
        fam = self.fam()
        a, b = rng.choice([('NULL', '0.2'), ('100', 'NULL'), ('NULL', 'NULL')])
        res = {}
        for agg in ('bloom_agg', 'counting_bloom_agg', 'scalable_bloom_agg'):
            sql = 'SELECT %s(x, %s, %s) IS NULL FROM v_%s' % (agg, a, b, fam)
            rows, code = self.run(sql, oracle='null_sizing')
            res[agg] = code or 'ok'
        ok = len(set(res.values())) == 1
        self.check('null_sizing_alike', ok, 'aggregates disagree on NULL sizing: %s' % res,
                   'SELECT bloom_agg(x, %s, %s), counting_bloom_agg(x, %s, %s), scalable_bloom_agg(x, %s, %s) '
                   'FROM v_%s' % (a, b, a, b, a, b, fam))

    # -- main loop -------------------------------------------------------------
    def main(self):
        self.ftab_removed = {}
        self.kind_time = collections.Counter()
        self.kind_stmts = collections.Counter()
        self.setup()
        kinds = [(self.st_call, 30), (self.st_operator, 14), (self.st_cast, 3), (self.st_agg, 10),
                 (self.st_probe_scan, 4), (self.st_write, 6), (self.oracle_members, 10), (self.oracle_text, 5),
                 (self.oracle_window, 1.5), (self.oracle_roundtrip, 2), (self.oracle_parallel, 1.2),
                 (self.oracle_fast_hash, 1), (self.oracle_prepared, 1.2), (self.oracle_null_sizing, 0.4),
                 (self.oracle_scan, 1), (self.st_copy_mutated, 2), (self.oracle_cancel, self.args.cancel_weight),
                 (self.oracle_parallel_members, 0.25), (self.oracle_add_probe, 1), (self.oracle_ordering, 0.5),
                 (self.oracle_sliced, 1), (self.oracle_rate, 1), (self.oracle_parquet, 0.8),
                 (self.oracle_index, 0.6), (self.oracle_batched, 1.2)]
        if self.has_skip:
            kinds.append((self.oracle_skip, 0.4))
            kinds.append((self.oracle_skip_pattern, float(os.environ.get('SQLFUZZ_SKIP_PATTERN_WEIGHT', '0.4'))))
            kinds.append((self.oracle_skip_collection, float(os.environ.get('SQLFUZZ_SKIP_COLLECTION_WEIGHT', '0.4'))))
        fns = [k for k, w in kinds]
        weights = [w for k, w in kinds]
        t0 = time.time()
        last = t0
        # every callable object once first, in catalog order, so that none is left to chance
        first = ([(self.st_call, fn) for fn in self.funcs] + [(self.st_agg, a) for a in self.aggs] +
                 [(self.st_operator, o) for o in self.ops] + [(self.st_cast, c) for c in self.casts])
        batchable = {self.st_call, self.st_operator, self.st_cast, self.st_agg, self.st_probe_scan}
        for fn, obj in first:
            try:
                fn(obj)
            except self.pg.InterfaceError as e:
                self.lost_connection('(between statements)', str(e))
        self.flush()
        target = self.args.statements
        # SIGTERM or the time budget ends the run early, with its report
        self.stop = None
        signal.signal(signal.SIGTERM, lambda *a: setattr(self, 'stop', 'SIGTERM'))
        deadline = t0 + self.args.seconds if self.args.seconds else None
        while self.st.bloom_statements < target and not self.stop:
            if deadline and time.time() > deadline:
                self.stop = 'the time budget of %d s' % self.args.seconds
                break
            fn = self.rng.choices(fns, weights)[0]
            t1 = time.time()
            n1 = self.st.bloom_statements
            try:
                if fn not in batchable:
                    self.flush()        # queued random calls go before an oracle changes settings or tables
                fn()
            except self.pg.InterfaceError as e:
                self.lost_connection('(between statements)', str(e))
            now = time.time()
            self.kind_time[fn.__name__] += now - t1
            self.kind_stmts[fn.__name__] += self.st.bloom_statements - n1
            if now - last > 30:
                last = now
                print('  ... %d statements, %.0f/s, %d failures' % (
                    self.st.bloom_statements, self.st.bloom_statements / (now - t0), self.st.nfailures),
                    flush=True)
        self.flush()
        for fid in self.ftab_members:
            if self.ftab_fam[fid]:
                self.oracle_write(fid)
        self.elapsed = time.time() - t0
        self.final_log_scan()
        self.report()

    def final_log_scan(self):
        """crashes and XX errors of this session's backends in the server log that the client did
        not see (another session's lines are its own to count)"""
        self.log_crash = 0
        self.log_xx = 0
        try:
            f = open(self.log_path, 'rb')
        except OSError:
            f = []
        # read line by line: a long run's log holds hundreds of MB of failed statements
        for raw in f:
            l = raw.decode('utf-8', 'replace')
            m = CRASH_PID.search(l)
            if m and (int(m.group(1)) in self.my_pids or 'background worker' in l):
                self.log_crash += 1
            m = LOG_ERR.search(l)
            if m and m.group(2).startswith('XX') and int(m.group(1)) in self.my_pids:
                self.log_xx += 1
        if self.log_crash > self.st.crashes:
            self.fail('crash', 'no_crash', '%d crash line(s) in the server log not seen by the client'
                      % (self.log_crash - self.st.crashes), '(see server log)')
        if self.log_xx > self.st.xx + self.st.xx_expected:
            self.fail('xx', 'no_xx', '%d XX error(s) in the server log that no statement reported or '
                      'an oracle asked for' % (self.log_xx - self.st.xx - self.st.xx_expected),
                      '(see server log)')

    def report_catalog(self):
        """what the run drew from (every callable object, by signature, with how often it was drawn)
        and what it could not call and why; an object never drawn fails the run"""
        objs = ([self.fninfo[f]['sig'] for f in self.funcs] + [self.fninfo[a]['sig'] for a in self.aggs] +
                ['operator %s(%s, %s)' % (o[0], o[1], o[2]) for o in self.ops] +
                ['cast %s -> %s' % (c[0], c[1]) for c in self.casts])
        print('  drew from %d callable objects (%d functions, %d aggregates, %d operators, %d casts; role %s, '
              'no name excluded), times drawn:' % (len(objs), len(self.funcs), len(self.aggs), len(self.ops),
                                                   len(self.casts), ROLE))
        print('    ' + ', '.join('%s=%d' % (o, self.drawn[o]) for o in objs))
        print('  not callable (%d): %s' % (len(self.uncallable), '; '.join(
            '%s: %s%s' % (sig, why, ', a call is refused with %s' % code if code else '')
            for sig, why, code in self.uncallable) or 'none'))
        never = [o for o in objs if self.drawn[o] == 0]
        if never:
            self.fail('wrong', 'every_object_drawn', '%d callable objects never drawn: %s' % (len(never), ', '.join(never)),
                      '(catalog)')
        else:
            self.st.passed['every_object_drawn'] += 1

    def report(self):
        st = self.st
        print()
        print('part B (generator): %d statements on bloomset objects (+%d setup/SET), %.1f s, %.0f statements/s'
              % (st.bloom_statements, st.other_statements, self.elapsed, st.bloom_statements / max(self.elapsed, 1e-9)))
        if getattr(self, 'stop', None):
            print('  stopped early by %s, after %d of %d statements' % (self.stop, st.bloom_statements,
                                                                        self.args.statements))
        self.report_catalog()
        print('  errors by SQLSTATE class: %s' % ', '.join('%s=%d' % kv for kv in sorted(st.errors.items())))
        print('  most frequent SQLSTATEs: %s' % ', '.join('%s=%d' % kv for kv in st.codes.most_common(12)))
        if hasattr(st, 'cancel_max'):
            print('  slowest cancellation (statement_timeout 300 ms, 64 MiB filters): %.2f s' % st.cancel_max)
        if st.batches or st.batches_replayed:
            print('  several statements per round trip: %d of the statements in %d batches (up to %d each); %d batches '
                  'run again one statement at a time (timeout or lost connection)'
                  % (st.batched_statements, st.batches, self.args.batch, st.batches_replayed))
        if st.collateral:
            print('  connections reset by another session\'s crash: %d' % st.collateral)
        print('  timeouts (57014): %d; crashes: %d (server log: %d); XX errors: %d (server log: %d, of '
              'them %d the oracles\' own corrupted rows, expected); wrong answers: %d'
              % (st.timeouts, st.crashes, self.log_crash, st.xx, self.log_xx, st.xx_expected, st.wrong))
        print('  oracle checks passed: %s' % ', '.join('%s=%d' % kv for kv in sorted(st.passed.items())))
        if st.skipped:
            print('  oracle checks not evaluated (expected error): %s'
                  % ', '.join('%s=%d' % kv for kv in sorted(st.skipped.items())))
        used, plain = st.passed.get('batched_plan_used', 0), st.passed.get('batched_plan_plain', 0)
        if used + plain:
            print('  batched probe (on = off): the BloomProbe node ran %d of %d on-runs (%.0f %%)'
                  % (used, used + plain, 100.0 * used / (used + plain)))
        if self.has_skip:
            su, sp = st.passed.get('skip_plan_used', 0), st.passed.get('skip_plan_seq', 0)
            print('  bloomskip (index plan = sequential scan): %d comparisons, the index plan ran %d of %d; pool '
                  'indexes %s' % (st.passed.get('skip_index_equals_seqscan', 0), su, su + sp,
                                  ', '.join(self.skip_pool) or 'none'))
            pu, ps = st.passed.get('skip_pattern_plan_used', 0), st.passed.get('skip_pattern_plan_seq', 0)
            print('  bloomskip patterns (index plan = sequential scan): %d comparisons, %d same errors, the index '
                  'plan ran %d of %d' % (st.passed.get('skip_pattern_equals_seqscan', 0),
                                         st.passed.get('skip_pattern_same_error', 0), pu, pu + ps))
            cu, cs = st.passed.get('skip_collection_plan_used', 0), st.passed.get('skip_collection_plan_seq', 0)
            print('  bloomskip arrays and jsonb (index plan = sequential scan): %d comparisons, %d same errors, '
                  'the index plan ran %d of %d' % (st.passed.get('skip_collection_equals_seqscan', 0),
                                                   st.passed.get('skip_collection_same_error', 0), cu, cu + cs))
        else:
            print('  bloomskip: no access method of that name in this build: its oracle did not run')
        if used + plain >= 20 and used < 0.3 * (used + plain):
            self.fail('wrong', 'batched_plan_share', 'the BloomProbe node ran only %d of %d on-runs'
                      % (used, used + plain), '(oracle_batched)')
        if st.failed:
            print('  oracle checks failed: %s' % ', '.join('%s=%d' % kv for kv in sorted(st.failed.items())))
        print('  time by statement kind: %s' % ', '.join(
            '%s %.1fs/%d' % (k, v, self.kind_stmts[k]) for k, v in self.kind_time.most_common()))
        if self.args.verbose:
            d = sorted(self.durations)
            if d:
                print('  statement time: median %.2f ms, p90 %.2f ms, p99 %.1f ms, sum %.1f s, >20ms: %d stmts %.1f s' % (
                    d[len(d) // 2] * 1e3, d[len(d) * 9 // 10] * 1e3, d[len(d) * 99 // 100] * 1e3, sum(d),
                    sum(1 for x in d if x > 0.02), sum(x for x in d if x > 0.02)))
            for dt, q in sorted(self.slow, reverse=True)[:15]:
                print('  slow %.2fs: %s' % (dt, q))
        summarize_failures(st.failures, st.failures_dropped)
        passed = sum(v for k, v in st.passed.items() if not k.startswith(('parallel_plan', 'batched_plan', 'skip_plan'))) + (
            1 if st.crashes == 0 else 0) + (1 if st.xx == 0 else 0)
        print('RESULT passed=%d failed=%d' % (passed, st.nfailures))


def failure_group(kind, oracle, detail, sql):
    """failures alike: kind, oracle and message without numbers; a crash also by the first
    bloomset function its statement calls (crashes all share one message)"""
    key = re.sub(r'\d+', 'N', detail)[:120]
    if kind == 'crash':
        m = re.search(r'\b((?:bloom|counting_bloom|scalable_bloom)\w*)\s*\(', sql)
        key = re.sub(r'^.*?(server process|background worker)', r'\1', key) + (' in %s()' % m.group(1) if m else '')
    return (kind, oracle, key)


def summarize_failures(failures, dropped=None):
    if not failures:
        return
    groups = collections.OrderedDict()
    for kind, oracle, detail, sql in failures:
        groups.setdefault(failure_group(kind, oracle, detail, sql), []).append(sql)
    dropped = dropped or collections.Counter()
    total = len(failures) + sum(dropped.values())
    print('  distinct failures (%d failures in %d groups):' % (total, len(groups)))
    for (kind, oracle, detail), sqls in groups.items():
        tag = classify(kind, detail + ' ' + oracle + ' ' + sqls[0])
        shortest = min(sqls, key=len)
        print('   - [%s] %s x%d: %s\n       e.g. %s' % (tag, kind, len(sqls) + dropped[(kind, oracle, detail)], detail,
                                                     shortest[:600]))


# ---------------------------------------------------------------------------
# part A: sqlsmith
# ---------------------------------------------------------------------------
def log_statement(log, i, marker, within):
    """the statement a server log line after line i gives after marker (STATEMENT:, Failed process
    was running:), with the lines that continue it (those without a log line prefix)"""
    for j in range(i + 1, min(i + within, len(log))):
        if marker in log[j]:
            parts = [log[j].split(marker, 1)[1]]
            for l in log[j + 1:j + 200]:
                if re.match(r'\d{4}-\d\d-\d\d ', l):
                    break
                parts.append(l)
            return ' '.join(p.strip() for p in parts)
    return None


def smith_report(args):
    text = open(args.queries, encoding='utf-8', errors='replace').read()
    queries = [q for q in re.split(r';\s*\n', text) if q.strip()]
    name_re = re.compile(r'\b(bloom\w*|counting_bloom\w*|scalable_bloom\w*)\b')
    col_re = re.compile(r'\.(f|cf|sf|g|tk)\b|\bselect\s+(f|cf|sf|g|tk)\s+from')
    by_name = sum(1 for q in queries if name_re.search(q))
    touching = sum(1 for q in queries if name_re.search(q) or col_re.search(q))
    funcs = collections.Counter()
    for q in queries:
        for m in set(re.findall(r'public\.(\w+)\(', q)):
            funcs[m] += 1
    ops = collections.Counter()
    for q in queries:
        for m in re.findall(r'\s(@>|\|\||<>|=|\||&|-)\s', q):
            ops[m] += 1
    log = open(args.log, encoding='utf-8', errors='replace').read().splitlines()
    classes = collections.Counter()
    codes = collections.Counter()
    xx = []
    for i, l in enumerate(log):
        m = LOG_ERR.search(l)
        if not m or m.group(3) != args.app or m.group(4) != 'ERROR':
            continue
        codes[m.group(2)] += 1
        classes[m.group(2)[:2]] += 1
        if m.group(2).startswith('XX'):
            xx.append((m.group(2) + ' ' + m.group(5), log_statement(log, i, 'STATEMENT:', 4) or ''))
    crashes = []
    for i, l in enumerate(log):
        if 'terminated by signal' in l or 'was terminated by exception' in l:
            stmt = log_statement(log, i, 'Failed process was running:', 3) or '(see the queries logged before it)'
            crashes.append((l.strip(), stmt))
    print('part A (sqlsmith): %d statements generated, %d touch bloomset objects (%d call bloomset functions or '
          'aggregates by name; the rest use its operators/types on filter columns)' % (len(queries), touching, by_name))
    print('  bloomset functions called (statements): %s' % ', '.join('%s=%d' % kv for kv in funcs.most_common()))
    print('  functions outside bloomset: %s' % (', '.join(sorted(
        f for f in funcs if not re.match(r'(bloom|counting_bloom|scalable_bloom)', f))) or 'none'))
    print('  errors by SQLSTATE class: %s' % ', '.join('%s=%d' % kv for kv in sorted(classes.items())))
    print('  most frequent SQLSTATEs: %s' % ', '.join('%s=%d' % kv for kv in codes.most_common(10)))
    print('  crashes: %d; XX errors: %d; timeouts (57014): %d; wrong answers: not checked (no oracle)'
          % (len(crashes), len(xx), codes.get('57014', 0)))
    if args.seconds:
        print('  %.0f s, %.0f statements/s' % (args.seconds, len(queries) / args.seconds))
    failures = []
    for c, stmt in crashes:
        failures.append(('crash', 'sqlsmith_no_crash', c, stmt))
    for msg, stmt in xx:
        failures.append(('XX', 'sqlsmith_no_xx', msg, stmt))
    for kind, oracle, detail, sql in failures[:20]:
        print('FAIL [%s] %s: %s\n  %s' % (kind, oracle, detail, sql[:1500]))
    summarize_failures(failures)
    narrowed_ok = len(queries) > 0 and touching >= 0.9 * len(queries)
    if not narrowed_ok:
        print('FAIL narrowing: only %d of %d statements touch bloomset objects' % (touching, len(queries)))
    passed = (1 if not crashes else 0) + (1 if not xx else 0) + (1 if narrowed_ok else 0)
    failed = len(failures) + (0 if narrowed_ok else 1)
    print('RESULT passed=%d failed=%d statements=%d bloom=%d' % (passed, failed, len(queries), touching))


def main():
    ap = argparse.ArgumentParser()
    sub = ap.add_subparsers(dest='cmd', required=True)
    g = sub.add_parser('gen')
    g.add_argument('--dsn', required=True)
    g.add_argument('--seed', type=int, default=1)
    g.add_argument('--statements', type=int, default=10000)
    g.add_argument('--timeout', type=int, default=5)
    g.add_argument('--big-rows', type=int, default=20000)
    g.add_argument('--wide-rows', type=int, default=3000)
    g.add_argument('--cancel-weight', type=float, default=0.1)
    g.add_argument('--log', required=True)
    g.add_argument('--verbose', action='store_true')
    g.add_argument('--ext-version', default='')
    g.add_argument('--seconds', type=int, default=0, help='stop (with the report) after this long')
    g.add_argument('--batch', type=int, default=Fuzzer.BATCH, help='random calls per round trip (1: one each)')
    s = sub.add_parser('smith-report')
    s.add_argument('--queries', required=True)
    s.add_argument('--log', required=True)
    s.add_argument('--app', default='sqlsmith::dut')
    s.add_argument('--seconds', type=float, default=0)
    args = ap.parse_args()
    if args.cmd == 'gen':
        Fuzzer(args).main()
    else:
        smith_report(args)


if __name__ == '__main__':
    main()
