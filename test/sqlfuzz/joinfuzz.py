#!/usr/bin/python3
"""test/sqlfuzz/joinfuzz.py -- the join fuzzer of bloomset's runtime join filters.

  joinfuzz.py --dsn DSN --seed S --queries N [--seconds T] [--log SERVER_LOG]

Random schemas and data (int2/int4/int8/numeric/float4/float8/text/varchar/
char(n) keys derived from one integer per row, so that keys of different
types of one row are equal across types; NULL keys, duplicates, skew, empty
and one-row tables, a nondeterministic ICU collation column where ICU is
available, tables left unanalyzed), random 2-5-way join trees of INNER,
LEFT, RIGHT and FULL joins with semi (EXISTS, IN) and anti (NOT EXISTS)
joins, LATERAL subqueries and correlated scalar subqueries (rescans, inner
sides rebuilt per outer row), random work_mem (64kB..4MB), parallel
settings, enable_mergejoin / enable_nestloop / enable_parallel_hash toggles,
and LIMIT variants (early shutdown).  Every query runs with
bloomset.runtime_filter = off and = on (and = force, where the server
accepts it), in a random order, and the answers are compared as multisets:
the row count and the sum of a 60-bit hash of every row's text (order-free,
duplicate-sensitive), computed on the server.  A LIMIT without ORDER BY is
only counted; a LIMIT with ORDER BY orders by every output column.

The oracle is the server itself with the setting off: nothing of the
runtime filter's code runs then.  A difference in answer or in SQLSTATE, a
crash (lost connection, or "terminated by signal" in the server log) or an
XX error is a failure, printed with the query and every setting it ran
under.  The fuzzer also counts the queries whose plan (EXPLAIN with the
setting on) holds a runtime filter, and fails when none did: a fuzzer whose
queries never get a filter proves nothing.

The last line is "RESULT passed=P failed=F" (as sqlfuzz.py's), before it a
line "joinfuzz: Q queries, D differences, R with a runtime filter, ...".
"""
import argparse
import json
import random
import re
import sys
import time

RF_SETTING = 'bloomset.runtime_filter'
INT_COLS = ['k2', 'k4', 'k8', 'kn', 'kf', 'kr']       # one hash family per pair they can join by
TEXT_COLS = ['kt', 'kv', 'kb']
# the pairs PostgreSQL joins with a hashable equality: the integer family
# (int2/int4/int8 cross-type), numeric against the integers (the integer
# side cast), float4/float8 (cross-type), text/varchar (the same operator)
# and char(n) (bpchar's own family, or text after a cast)
COMPAT = {
    'k2': ['k2', 'k4', 'k8', 'kn'], 'k4': ['k2', 'k4', 'k8', 'kn'], 'k8': ['k2', 'k4', 'k8', 'kn'],
    'kn': ['k2', 'k4', 'k8', 'kn'], 'kf': ['kf', 'kr'], 'kr': ['kf', 'kr'],
    'kt': ['kt', 'kv', 'kb'], 'kv': ['kt', 'kv', 'kb'], 'kb': ['kb', 'kt', 'kv'], 'kc': ['kc'],
}


class Failure(Exception):
    pass


def kind_is_fact(name):
    return name.startswith('f')


class JoinFuzz:
    def __init__(self, args):
        import psycopg2
        self.pg = psycopg2
        self.args = args
        self.rng = random.Random(args.seed)
        self.conn = None
        self.log_pos = self._log_size()
        self.n_queries = 0
        self.n_compared = 0
        self.n_diff = 0
        self.n_with_filter = 0
        self.n_force_filter = 0
        self.n_mode_skips = 0
        self.n_errors_same = 0
        self.n_timeouts = 0
        self.n_crashes = 0
        self.n_xx = 0
        self.n_explain_analyze = 0
        self.n_removed = 0
        self.n_schemas = 0
        self.n_redrawn = 0
        self.n_prepared = 0
        self.slow = []
        self.failures = []
        self.connect()

    # -- connection ---------------------------------------------------------
    def _log_size(self):
        if not self.args.log:
            return 0
        try:
            with open(self.args.log, 'rb') as f:
                f.seek(0, 2)
                return f.tell()
        except OSError:
            return 0

    def _log_crashes(self):
        if not self.args.log:
            return ''
        out = []
        try:
            with open(self.args.log, 'rb') as f:
                f.seek(self.log_pos)
                for raw in f:
                    if b'terminated by signal' in raw or b'PANIC' in raw:
                        out.append(raw.decode('utf-8', 'replace').strip())
                self.log_pos = f.tell()
        except OSError:
            pass
        return '\n'.join(out)

    def connect(self, wait=120):
        deadline = time.time() + wait
        while True:
            try:
                self.conn = self.pg.connect(self.args.dsn)
                break
            except self.pg.OperationalError:
                if time.time() > deadline:
                    raise
                time.sleep(0.5)
        self.conn.autocommit = True
        self.cur = self.conn.cursor()
        self.cur.execute("SET client_min_messages = error")
        self.cur.execute("SET application_name = 'joinfuzz'")
        self.cur.execute("SET extra_float_digits = 3")
        self.cur.execute("LOAD 'bloomset'")

    def execute(self, sql):
        """(rows, None) or (None, sqlstate); a lost connection raises Failure"""
        try:
            self.cur.execute(sql)
            return (self.cur.fetchall() if self.cur.description else []), None
        except self.pg.Error as e:
            if e.pgcode is None or self.conn.closed:
                time.sleep(1.0)
                crash = self._log_crashes()
                try:
                    self.conn.close()
                except Exception:
                    pass
                self.connect()
                self.n_crashes += 1
                raise Failure('crash: %s' % (crash or str(e).strip()))
            if e.pgcode.startswith('XX'):
                self.n_xx += 1
            return None, '%s %s' % (e.pgcode, (e.pgerror or '').strip().splitlines()[0] if e.pgerror else '')

    def must(self, sql):
        rows, err = self.execute(sql)
        for _ in range(3):
            if not (err and err.startswith('57014')):
                break
            # a setup statement cancelled by the query timeout on a loaded
            # machine (the fuzzer's own sessions share it): settings and
            # DDL are idempotent here or rolled back, so run it again
            time.sleep(0.5)
            rows, err = self.execute(sql)
        if err:
            raise RuntimeError('setup statement failed: %s\n  %s' % (err, sql))
        return rows

    # -- data -----------------------------------------------------------------
    def setup_once(self):
        self.must("CREATE EXTENSION IF NOT EXISTS bloomset")     # bloomskip indexes
        self.has_rf = bool(self.must("SELECT count(*) FROM pg_settings WHERE name = '%s'" % RF_SETTING)[0][0])
        self.modes = ['off', 'on']
        if self.has_rf:
            _, err = self.execute("SET %s = force" % RF_SETTING)
            if err is None:
                self.modes.append('force')
            self.execute("RESET %s" % RF_SETTING)
        # the thresholds of the filters' rule, where the build has them as
        # settings: lowered at random, so that small tables get filters too
        self.knobs = [n for (n,) in self.must("SELECT name FROM pg_settings WHERE name IN "
                                               "('bloomset.runtime_filter_min_rows')")]
        self.icu = False
        if not self.args.no_icu:
            _, err = self.execute("CREATE COLLATION IF NOT EXISTS jf_ci "
                                  "(provider = icu, locale = 'und-u-ks-level2', deterministic = false)")
            self.icu = err is None
        self.must("SET statement_timeout = '%ds'" % self.args.timeout)

    def make_schema(self):
        """a fresh set of tables: facts (big, the probe sides), dimensions, tiny and empty tables"""
        r = self.rng
        self.n_schemas += 1
        big = self.args.fact_rows
        specs = [('f1', big, r.choice([500, 2000, 5000, 20000])),
                 ('f2', max(10000, big // r.choice([2, 3, 4])), r.choice([200, 2000, 5000])),
                 ('d1', r.choice([1000, 3000, 5000]), None),
                 ('d2', r.choice([100, 300, 1000]), None),
                 ('d3', r.choice([20, 50, 200]), None),
                 ('e1', r.choice([0, 1, 3]), None),
                 ('e0', 0, None)]
        self.tables = {}
        desc = []
        seed = r.random() * 2 - 1
        self.must("SELECT setseed(%f)" % seed)
        for name, n, dom in specs:
            dom = dom or max(n, 1)
            nullp = r.choice([0, 0, 0.01, 0.05, 0.3])
            # share of a fact table's rows on a few hot keys (dimensions: none,
            # or a join of two skewed tables multiplies out)
            skew = r.choice([0, 0, 0.2, 0.5]) if name == 'f1' else 0
            dup = r.choice([1, 1, 1, 2, 3])              # a dimension's keys repeated
            order = r.choice(['id', 'id', 'random()', 'v'])
            ci = 'COLLATE jf_ci' if self.icu else ''
            self.must("DROP TABLE IF EXISTS %s" % name)
            # v: the row's key; every key column is v in its own type (or NULL with it)
            self.must("""
CREATE TABLE {t} AS
SELECT id, p, v AS k4, v::int2 AS k2, v::int8 AS k8,
       CASE WHEN id % 3 = 0 THEN v::numeric * 1.00 ELSE v::numeric END AS kn,
       CASE WHEN v = 0 AND id % 2 = 0 THEN '-0'::float8 ELSE v::float8 END AS kf,
       v::float4 AS kr,
       'k' || v AS kt, ('k' || v)::varchar(12) AS kv, ('k' || v)::char(8) AS kb,
       CASE WHEN id % 2 = 0 THEN upper('k' || v) ELSE 'k' || v END {ci} AS kc,
       md5(id::text) AS pad
  FROM (SELECT id, (random() * 100)::int AS p,
               CASE WHEN random() < {nullp} THEN NULL
                    WHEN random() < {skew} THEN (random() * 3)::int
                    WHEN '{kind}' = 'dim' THEN ((id - 1) / {dup}) % {dom}
                    ELSE (random() * {dom})::int END AS v
          FROM generate_series(1, {n}) id) s
 ORDER BY {order}""".format(t=name, ci=ci, nullp=nullp, skew=skew, dup=dup, dom=dom, n=n,
                             order=order, kind='dim' if name.startswith('d') else 'fact'))
            # a bloomskip index on some keys of a fact table: a build of few
            # keys reads the table through it instead (jf_prune.c)
            if kind_is_fact(name) and r.random() < 0.5:
                for col in r.sample(['k4', 'k8', 'k2', 'kt', 'kn'], 2):
                    self.must("CREATE INDEX ON %s USING bloomskip (%s) WITH (pages_per_range = %d)"
                              % (name, col, r.choice([1, 4, 16])))
            if r.random() < 0.85:
                self.must("ANALYZE %s" % name)
            self.tables[name] = n
            desc.append('%s(rows %d, keys 0..%d, nulls %s, hot keys %s, dup %d, order %s)'
                        % (name, n, dom, nullp, skew, dup, order))
        self.schema_desc = '; '.join(desc)
        self.cols = INT_COLS + TEXT_COLS + (['kc'] if self.icu else [])

    # -- queries --------------------------------------------------------------
    def key_pair(self, lrels, rrels):
        r = self.rng
        lc = r.choice(self.cols)
        rc = r.choice(COMPAT[lc])
        la, ra = r.choice(lrels), r.choice(rrels)
        lexp, rexp = '%s.%s' % (la, lc), '%s.%s' % (ra, rc)
        x = r.random()
        if x < 0.05 and lc in ('k4', 'k8') and rc in ('k4', 'k8'):
            lexp, rexp = '(%s + 1)' % lexp, '(%s + 1)' % rexp     # expression keys
        elif x < 0.08 and lc in ('kt', 'kv') and rc in ('kt', 'kv'):
            lexp = 'lower(%s)' % lexp
        return '%s = %s' % (lexp, rexp)

    def join_cond(self, lrels, rrels, full):
        r = self.rng
        conds = [self.key_pair(lrels, rrels)]
        if r.random() < 0.2:
            conds.append(self.key_pair(lrels, rrels))
        if not full and r.random() < 0.15:
            conds.append('%s.p < %s.p + %d' % (r.choice(lrels), r.choice(rrels), r.choice([0, 30, 80])))
        return ' AND '.join(conds)

    def pick_table(self, first):
        r = self.rng
        if first:
            return r.choice(['f1', 'f1', 'f1', 'f2'])
        return r.choice(['d1', 'd1', 'd2', 'd2', 'd3', 'e1', 'e0', 'f2', 'd1'])

    def tree(self, rels):
        """a join tree over the aliases rels (each 'aN' over a table) as FROM text"""
        r = self.rng
        if len(rels) == 1:
            return '%s %s' % (self.alias_table[rels[0]], rels[0])
        cut = r.randint(1, len(rels) - 1)
        left, right = rels[:cut], rels[cut:]
        jt = r.choice(['JOIN', 'JOIN', 'JOIN', 'JOIN', 'LEFT JOIN', 'LEFT JOIN', 'RIGHT JOIN', 'FULL JOIN'])
        lt, rt = self.tree(left), self.tree(right)
        if len(right) > 1:
            rt = '(%s)' % rt
        return '%s %s %s ON %s' % (lt, jt, rt, self.join_cond(left, right, jt == 'FULL JOIN'))

    def dim_pred(self, alias):
        r = self.rng
        return r.choice(['%s.p < %d' % (alias, r.choice([1, 2, 5, 10, 20, 50, 90])),
                         '%s.p >= %d' % (alias, r.choice([50, 90, 99])),
                         '%s.k4 %% %d = %d' % (alias, r.choice([7, 10, 100]), r.randint(0, 6)),
                         '%s.kt LIKE \'k1%%\'' % alias])

    def sublink(self, rels):
        """EXISTS / IN / NOT EXISTS against a filtered table (semi and anti joins)"""
        r = self.rng
        t = r.choice(['d1', 'd2', 'd3', 'f2', 'e1', 'e0'])
        outer = r.choice(rels)
        oc = r.choice(self.cols)
        ic = r.choice(COMPAT[oc])
        where = self.dim_pred('s') if r.random() < 0.8 else 'true'
        kind = r.choice(['EXISTS', 'EXISTS', 'IN', 'NOT EXISTS', 'NOT IN'])
        if kind in ('EXISTS', 'NOT EXISTS'):
            return '%s (SELECT 1 FROM %s s WHERE s.%s = %s.%s AND %s)' % (kind, t, ic, outer, oc, where)
        return '%s.%s %s (SELECT s.%s FROM %s s WHERE %s)' % (outer, oc, kind, ic, t, where)

    def lateral(self, rels):
        """a LATERAL subquery holding a hash join whose build side depends on the outer row"""
        r = self.rng
        outer = r.choice(rels)
        fact = r.choice(['f1', 'f2'])
        dim = r.choice(['d1', 'd2', 'd3'])
        c = r.choice(['k4', 'k8', 'kt', 'kn'])
        param = r.choice(['y.p < %s.p' % outer, 'y.k4 %% 5 = %s.p %% 5' % outer, 'y.p < 10'])
        body = 'SELECT count(*) AS lc, sum(x.id) AS ls FROM %s x JOIN %s y ON x.%s = y.%s WHERE %s' % (
            fact, dim, c, r.choice(COMPAT[c]), param)
        if r.random() < 0.3:
            body += ' AND x.%s = %s.%s' % (c, outer, c)
        return body

    def query(self):
        r = self.rng
        nrel = r.choice([2, 2, 3, 3, 3, 4, 4, 5])
        rels = ['a%d' % i for i in range(nrel)]
        self.alias_table = {a: self.pick_table(i == 0) for i, a in enumerate(rels)}
        r.shuffle(rels)
        frm = self.tree(rels)
        where = []
        for a in rels:
            if self.alias_table[a][0] in 'de' and r.random() < 0.7:
                where.append(self.dim_pred(a))
            elif r.random() < 0.05:
                where.append('%s.%s IS NOT NULL' % (a, r.choice(self.cols)))
        if r.random() < 0.3:
            where.append(self.sublink(rels))
        # a correlated scalar subquery or LATERAL only over a small outer side
        small = [a for a in rels if self.alias_table[a] in ('d2', 'd3', 'e1', 'e0')]
        sel = []
        for a in sorted(rels):
            sel.append('%s.id AS %s_id' % (a, a))
            if r.random() < 0.4:
                c = r.choice(self.cols)
                sel.append('%s.%s AS %s_%s' % (a, c, a, c))
        if small and r.random() < 0.15:
            frm += ' CROSS JOIN LATERAL (%s) lz' % self.lateral([small[0]])
            where.append('%s.p < 10' % small[0])
            sel.append('lz.lc')
            sel.append('lz.ls')
        elif small and r.random() < 0.1:
            o = small[0]
            c = r.choice(['k4', 'kt'])
            sel.append('(SELECT count(*) FROM f1 x JOIN d1 y ON x.%s = y.%s WHERE y.p < %s.p AND y.p < 20) AS sq'
                       % (c, c, o))
            where.append('%s.p < 10' % o)
        q = 'SELECT %s FROM %s' % (', '.join(sel), frm)
        if where:
            q += ' WHERE ' + ' AND '.join(where)
        shape = r.random()
        self.dml = False
        if shape < 0.04:
            # a join under DML (run in a transaction rolled back) and under FOR UPDATE
            self.dml = True
            t = self.alias_table['a0']
            return ('WITH u AS (UPDATE %s SET p = p WHERE id IN (SELECT a0_id FROM (%s) q) RETURNING id, p) '
                    'SELECT count(*), sum(id) FROM u' % (t, q))
        if shape < 0.08:
            return 'SELECT count(*), sum((\'x\' || substr(md5(q::text), 1, 15))::bit(60)::int8) FROM (%s FOR UPDATE OF a0) q' % q
        if shape < 0.12:
            g = sorted(rels)[0]
            q = 'SELECT %s_id %% 10 AS g, count(*) AS n, sum(%s_id) AS s FROM (%s) q GROUP BY 1' % (g, g, q)
            return 'SELECT count(*), sum((\'x\' || substr(md5(q::text), 1, 15))::bit(60)::int8) FROM (%s) q' % q
        if shape < 0.22:
            return 'SELECT count(*), 0 FROM (%s LIMIT %d) q' % (q, r.choice([1, 10, 100, 1000]))
        if shape < 0.30:
            q += ' ORDER BY %s LIMIT %d' % (', '.join(str(i + 1) for i in range(len(sel))), r.choice([5, 100]))
        return 'SELECT count(*), sum((\'x\' || substr(md5(q::text), 1, 15))::bit(60)::int8) FROM (%s) q' % q

    def settings(self):
        r = self.rng
        s = [('work_mem', "'%s'" % r.choice(['64kB', '128kB', '256kB', '1MB', '4MB'])),
             ('enable_mergejoin', r.choice(['on', 'off', 'off'])),
             ('enable_nestloop', r.choice(['on', 'off'])),
             ('max_parallel_workers_per_gather', str(r.choice([0, 0, 1, 2, 2])))]
        if r.random() < 0.5:
            s += [('parallel_setup_cost', '0'), ('parallel_tuple_cost', r.choice(['0', '0.1'])),
                  ('min_parallel_table_scan_size', '0')]
        else:
            s += [('parallel_setup_cost', '1000'), ('parallel_tuple_cost', '0.1'),
                  ('min_parallel_table_scan_size', "'8MB'")]
        s += [('enable_parallel_hash', r.choice(['on', 'on', 'off'])),
              ('parallel_leader_participation', r.choice(['on', 'on', 'off'])),
              ('enable_hashagg', r.choice(['on', 'off'])),
              ('hash_mem_multiplier', r.choice(['1', '2'])),
              ('jit', 'off')]
        for k in self.knobs:
            if r.random() < 0.5:
                s.append((k, r.choice(['0', '100', '1000'])))
            else:
                s.append((k, 'DEFAULT'))
        if r.random() < 0.05:
            s += [('jit', 'on'), ('jit_above_cost', '0'), ('jit_inline_above_cost', '0'),
                  ('jit_optimize_above_cost', '0')]
        return s

    # -- one case ---------------------------------------------------------------
    def plan(self, q):
        """(whether the plan has a runtime filter, the largest row estimate of its nodes)"""
        rows, err = self.execute('EXPLAIN (FORMAT JSON) ' + q)
        if err:
            return None, 0
        text = json.dumps(rows[0][0])
        est = max([float(x) for x in re.findall(r'"Plan Rows": ([0-9.e+]+)', text)] or [0])
        return 'Runtime Filter' in text, est

    def removed_by_filter(self, q):
        """EXPLAIN ANALYZE of the query (the instrumentation paths, in workers too): rows removed"""
        rows, err = self.execute('EXPLAIN (ANALYZE, TIMING OFF, SUMMARY OFF) ' + q)
        if err:
            return err
        self.n_explain_analyze += 1
        n = 0
        for (line,) in rows:
            m = re.search(r'Rows Removed by Runtime Filter: (\d+)', line)
            if m:
                n += int(m.group(1))
        self.n_removed += n
        return None

    def case(self):
        r = self.rng
        sets = self.settings()
        self.must('; '.join('SET %s = %s' % kv for kv in sets))
        self.prep = False
        if self.has_rf:
            self.must("SET %s = on" % RF_SETTING)
        # queries whose joins multiply out (estimated) are drawn again: the
        # fuzzer's time goes to many queries, not to a few huge ones
        for _ in range(10):
            q = self.query()
            has, est = self.plan(q)
            if est <= self.args.max_rows:
                break
            self.n_redrawn += 1
        if r.random() < 0.08 and re.search(r'\.p < \d+', q) and not self.dml:
            self.prep = True
            sets.append(('plan_cache_mode', 'force_generic_plan'))
            self.must('SET plan_cache_mode = force_generic_plan')
            self.n_prepared += 1
        modes = list(self.modes)
        r.shuffle(modes)
        results = {}
        self.n_queries += 1
        try:
            if self.has_rf:
                if has:
                    self.n_with_filter += 1
                    if r.random() < 0.1 and not self.dml:
                        err = self.removed_by_filter(q)
                        if err and not err.startswith('57014'):
                            results['explain analyze'] = (None, err)
                if 'force' in self.modes:
                    self.must("SET %s = force" % RF_SETTING)
                    force_has = self.plan(q)[0]
                    if force_has:
                        self.n_force_filter += 1
                # a mode whose plan has no runtime filter runs the plan of
                # 'off' (the hook adds nothing): nothing to compare, so it
                # is not run -- except prepared statements, whose generic
                # plans EXPLAIN does not show, and the sabotage check
                if not self.prep and not self.args.sabotage:
                    without = {'on': not has, 'force': 'force' in self.modes and not force_has}
                    skip = [m for m in modes if without.get(m)]
                    self.n_mode_skips += len(skip)
                    modes = [m for m in modes if m not in skip]
            for m in modes:
                if self.has_rf:
                    self.must("SET %s = %s" % (RF_SETTING, m))
                t0 = time.time()
                if self.dml:
                    self.must('BEGIN')
                results[m] = self.execute(self.sabotaged(self.prepared(q), m))
                if self.dml:
                    self.must('ROLLBACK')
                if self.prep:
                    self.must('DEALLOCATE ALL')
                self.slow.append((time.time() - t0, m, q))
                if results[m][1] and results[m][1].startswith('57014'):
                    break       # timed out: not compared, so the other modes need not run
            if len(self.slow) > 200:
                self.slow = sorted(self.slow, reverse=True)[:20]
        except Failure as e:
            self.report('crash', str(e), q, sets)
            return
        errs = [v[1] for v in results.values() if v[1]]
        if any(e.startswith('57014') for e in errs):
            self.n_timeouts += 1
            return
        self.n_compared += 1
        if 'explain analyze' in results:
            self.report('explain analyze error', results['explain analyze'][1], q, sets)
            return
        base = results['off']
        for m, res in results.items():
            if res != base:
                self.n_diff += 1
                sets = self.fewer_settings(q, sets, m)
                self.report('difference', 'off: %s; %s: %s' % (self.show(base), m, self.show(res)), q, sets)
                return
        if base[1]:
            self.n_errors_same += 1

    def differs(self, q, sets, mode):
        """whether q still answers differently with the setting off and mode under sets"""
        try:
            self.must('RESET ALL')
            self.must("SET statement_timeout = '%ds'" % self.args.timeout)
            self.must('; '.join('SET %s = %s' % kv for kv in sets) or 'SELECT 1')
            if self.has_rf:
                self.must("SET %s = off" % RF_SETTING)
            off = self.execute(q)
            if self.has_rf:
                self.must("SET %s = %s" % (RF_SETTING, mode))
            on = self.execute(self.sabotaged(q, mode))
        except Failure:
            return True
        return off != on and not any(e and e.startswith('57014') for e in (off[1], on[1]))

    def prepared(self, q):
        """a share of the queries runs as a prepared statement with its first dimension
        constant as a parameter, under a generic plan, prepared anew under each setting
        (a plan cached under one setting is not replanned for another)"""
        if not self.prep:
            return q
        m = re.search(r'(\.p < )(\d+)', q)
        return 'PREPARE jfp(int) AS %s$1%s; EXECUTE jfp(%s)' % (q[:m.end(1)], q[m.end(2):], m.group(2))

    def sabotaged(self, q, mode):
        """--sabotage: the query with the setting on loses a row (does the fuzzer see it?)"""
        if not self.args.sabotage or mode == 'off':
            return q
        return q[:-len(') q')] + ' OFFSET 1) q'

    def fewer_settings(self, q, sets, mode):
        """the settings of a failing case without those it fails without (a shorter reproduction)"""
        if not self.has_rf and not self.args.sabotage:
            return sets
        keep = list(sets)
        for kv in list(sets):
            trial = [x for x in keep if x != kv]
            if self.differs(q, trial, mode):
                keep = trial
        if not self.differs(q, keep, mode):
            keep = sets         # flaky: report every setting
        self.must('RESET ALL')
        self.must("SET statement_timeout = '%ds'" % self.args.timeout)
        return keep

    @staticmethod
    def show(res):
        rows, err = res
        return 'ERROR %s' % err if err else 'count %s, checksum %s' % (rows[0][0], rows[0][1])

    def report(self, kind, detail, q, sets):
        self.failures.append((kind, detail, q, sets))
        if len(self.failures) <= 20:
            print('FAIL [%s] %s\n  (query %d of seed %d, tables of draw %d; settings it needs)\n  settings: %s;\n  query: %s;' % (
                kind, detail, self.n_queries, self.args.seed, self.n_schemas,
                '; '.join('SET %s = %s' % kv for kv in sets) or '(none needed)', q), flush=True)
            if len(self.failures) <= 3:
                print('  tables: %s' % self.schema_desc, flush=True)

    def run(self):
        t0 = time.time()
        self.setup_once()
        every = self.args.schema_every
        i = 0
        while i < self.args.queries:
            if i % every == 0:
                self.make_schema()
                self.must('RESET ALL')
                self.must("SET statement_timeout = '%ds'" % self.args.timeout)
            self.case()
            i += 1
            if self.args.seconds and time.time() - t0 > self.args.seconds:
                break
            if self.args.progress and i % self.args.progress == 0:
                print('  %d queries, %d with a runtime filter, %d differences, %.0f s'
                      % (i, self.n_with_filter, self.n_diff, time.time() - t0), flush=True)
        crash = self._log_crashes()
        if crash:
            self.n_crashes += 1
            self.failures.append(('crash', crash, '(server log)', []))
            print('FAIL [crash] server log:\n%s' % crash)
        dt = time.time() - t0
        print('joinfuzz: %d queries (%d compared, %d timed out, %d errors alike), %d differences, '
              '%d with a runtime filter (%s), %d crashes, %d XX errors, %d schemas, %d drawn again, seed %d, %.0f s'
              % (self.n_queries, self.n_compared, self.n_timeouts, self.n_errors_same, self.n_diff,
                 self.n_with_filter, '%d under force' % self.n_force_filter if 'force' in self.modes
                 else 'setting %s' % ('present' if self.has_rf else 'ABSENT'),
                 self.n_crashes, self.n_xx, self.n_schemas, self.n_redrawn, self.args.seed, dt))
        print('joinfuzz: %d EXPLAIN ANALYZE runs, %d rows removed by runtime filters; %d prepared (generic plans); '
              'modes %s; %d runs of a mode whose plan had no filter skipped; ICU %s'
              % (self.n_explain_analyze, self.n_removed, self.n_prepared, '/'.join(self.modes),
                 self.n_mode_skips, 'yes' if self.icu else 'no'))
        if self.args.verbose:
            for dt, m, q in sorted(self.slow, reverse=True)[:10]:
                print('  slow %.2f s (%s): %s' % (dt, m, q[:400]))
        failed = len(self.failures)
        passed = self.n_compared - self.n_diff
        if self.n_with_filter == 0:
            print('FAIL [vacuous] no query had a runtime filter in its plan (setting %s)'
                  % ('present' if self.has_rf else 'absent: is bloomset loaded, does it have %s?' % RF_SETTING))
            failed += 1
        print('RESULT passed=%d failed=%d' % (passed, failed))
        return failed == 0


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument('--dsn', required=True)
    ap.add_argument('--seed', type=int, default=1)
    ap.add_argument('--queries', type=int, default=3000)
    ap.add_argument('--seconds', type=float, default=0, help='stop after this long (0: no limit)')
    ap.add_argument('--fact-rows', type=int, default=15000)
    ap.add_argument('--max-rows', type=float, default=100000,
                    help='draw again a query with a larger row estimate in its plan')
    ap.add_argument('--verbose', action='store_true', help='print the slowest queries')
    ap.add_argument('--schema-every', type=int, default=300, help='new tables every N queries')
    ap.add_argument('--timeout', type=int, default=5, help='statement_timeout in seconds')
    ap.add_argument('--log', help='the server log (crash lines)')
    ap.add_argument('--no-icu', action='store_true')
    ap.add_argument('--sabotage', action='store_true',
                    help='drop a row from every answer with the setting on: the run must fail')
    ap.add_argument('--progress', type=int, default=0)
    args = ap.parse_args()
    ok = JoinFuzz(args).run()
    sys.exit(0 if ok else 1)


if __name__ == '__main__':
    main()
