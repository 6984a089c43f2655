-- Hostile input: thousands of deterministic mutations of valid filters of
-- both layouts, fed to the text decoder (bloom_in, via ::bloom), the binary
-- decoder (bloom_from_bytea, via ::bytea::bloom, the same code as
-- bloom_recv) and bloom_recv itself (binary COPY).  Every rejection must be
-- a data exception (SQLSTATE class 22) and every accepted value must behave:
-- bloom_info, bloom_estimate_card, probing, union, folding and both round
-- trips work on it.  Only aggregate counts and booleans are shown, plus a
-- table of hand-written absurd headers; the cases that break a rule would be
-- listed by the "violations" queries (empty when all is well).
SET client_min_messages = warning;
\set VERBOSITY terse

-- the filters to mutate
CREATE TABLE mut_base (id int PRIMARY KEY, what text, f bloom);
INSERT INTO mut_base
SELECT 1, 'bloom_agg(x, 1000, 0.01)', bloom_agg(x, 1000, 0.01) FROM generate_series(1, 500) x
UNION ALL SELECT 2, 'bloom_empty(64, 3, 7) || 1', bloom_empty(64, 3, 7) || 1
UNION ALL SELECT 3, 'bloom_agg(x)', bloom_agg(x) FROM generate_series(1, 300) x
UNION ALL SELECT 4, 'bloom_agg(md5, 100, 1e-5)', bloom_agg(md5(x::text), 100, 0.00001) FROM generate_series(1, 50) x
UNION ALL SELECT 5, 'bloom_empty(10)', bloom_empty(10);
SELECT id, what, (bloom_info(f)).layout, (bloom_info(f)).bits, (bloom_info(f)).hashes,
       (bloom_info(f)).element_family, length(f::text) AS text_len,
       length(bloom_to_bytea(f)) AS binary_len
FROM mut_base ORDER BY id;

-- deterministic pseudo-random numbers in [0, n), from md5 of a seed string
CREATE FUNCTION mut_rand(seed text, n bigint) RETURNS bigint
LANGUAGE sql IMMUTABLE STRICT AS
$$ SELECT ('x' || substr(md5(seed), 1, 15))::bit(60)::bigint % greatest(n, 1) $$;

-- one element of an array, chosen by seed
CREATE FUNCTION mut_pick(seed text, a text[]) RETURNS text
LANGUAGE sql IMMUTABLE STRICT AS
$$ SELECT a[1 + mut_rand(seed, cardinality(a))] $$;

-- two non-ASCII characters, if the database encoding has them
CREATE FUNCTION mut_nonascii() RETURNS text
LANGUAGE sql STABLE AS
$$ SELECT CASE WHEN getdatabaseencoding() = 'UTF8' THEN chr(233) || chr(8364) ELSE '' END $$;

-- n pseudo-random characters (printable, hex, delimiters, control, non-ASCII)
CREATE FUNCTION mut_chars(seed text, n int) RETURNS text
LANGUAGE sql IMMUTABLE STRICT AS $$
  SELECT coalesce(string_agg(substr(alphabet, 1 + mut_rand(seed || ':' || i, length(alphabet))::int, 1), ''), '')
  FROM generate_series(1, n) i,
       (SELECT '0123456789abcdef0123456789abcdefABCDEF =:-_.,()~gxyzv'
               || chr(1) || chr(9) || chr(10) || chr(127) || mut_nonascii()
               || '\''"%' AS alphabet) a
$$;

-- n pseudo-random bytes
CREATE FUNCTION mut_bytes(seed text, n int) RETURNS bytea
LANGUAGE sql IMMUTABLE STRICT AS $$
  SELECT coalesce(decode(string_agg(md5(seed || ':' || i), ''), 'hex'), '\x'::bytea)
  FROM generate_series(1, (n + 15) / 16) i
$$;
CREATE FUNCTION mut_nbytes(seed text, n int) RETURNS bytea
LANGUAGE sql IMMUTABLE STRICT AS
$$ SELECT substring(mut_bytes(seed, n) FROM 1 FOR n) $$;

-- replace the value of one text-form field (key includes its " " and "=")
CREATE FUNCTION mut_set_field(s text, key text, val text) RETURNS text
LANGUAGE plpgsql IMMUTABLE STRICT AS $$
DECLARE
	p int := strpos(s, key);
	vstart int;
	q int;
BEGIN
	IF p = 0 THEN
		RETURN s;
	END IF;
	vstart := p + length(key);
	IF key = ' hex=' THEN
		RETURN left(s, vstart - 1) || val;
	END IF;
	q := strpos(substr(s, vstart), ' ');
	IF q = 0 THEN
		RETURN left(s, vstart - 1) || val;
	END IF;
	RETURN left(s, vstart - 1) || val || substr(s, vstart + q - 1);
END $$;

CREATE FUNCTION mut_get_field(s text, key text) RETURNS text
LANGUAGE sql IMMUTABLE STRICT AS $$
  SELECT CASE WHEN strpos(s, key) = 0 THEN NULL
              WHEN key = ' hex=' THEN substr(s, strpos(s, key) + length(key))
              ELSE split_part(substr(s, strpos(s, key) + length(key)), ' ', 1) END
$$;

-- One mutation of the text form s, of kind k (0 .. 9), seeded.
CREATE FUNCTION mut_text1(s text, k int, seed text) RETURNS text
LANGUAGE plpgsql IMMUTABLE STRICT AS $$
DECLARE
	len int := length(s);
	pos int := 1 + mut_rand(seed || ':pos', greatest(len, 1))::int;
	n int := 1 + mut_rand(seed || ':n', 8)::int;
	bits numeric := coalesce(nullif(regexp_replace(coalesce(mut_get_field(s, ' bits='), ''), '[^0-9]', '', 'g'), ''), '256')::numeric;
	hex text := coalesce(mut_get_field(s, ' hex='), '');
	key text;
	val text;
BEGIN
	CASE k
	WHEN 0 THEN		-- overwrite 1..8 characters
		RETURN overlay(s PLACING mut_chars(seed, n) FROM pos FOR n);
	WHEN 1 THEN		-- delete a span
		RETURN overlay(s PLACING '' FROM pos FOR n);
	WHEN 2 THEN		-- insert characters
		RETURN overlay(s PLACING mut_chars(seed, n) FROM pos FOR 0);
	WHEN 3 THEN		-- truncate
		RETURN left(s, mut_rand(seed || ':t', len)::int);
	WHEN 4 THEN		-- extend
		RETURN s || mut_pick(seed || ':e', ARRAY[mut_chars(seed, n), '0', '00', repeat('0', 16),
			repeat('f', 64), ' ', ' hex=00', hex, upper(left(hex, 8))]);
	WHEN 5, 6 THEN	-- an absurd or inconsistent header field value
		key := mut_pick(seed || ':key', ARRAY['bloom:v', ' layout=', ' k=', ' seed=', ' bits=', ' bits=',
			' items=', ' flags=', ' coll=', ' family=', ' hex=', ' hex=']);
		val := CASE key
			WHEN 'bloom:v' THEN mut_pick(seed || ':v', ARRAY['0', '2', '255', '256', '01', '-1', '', '1 ', '99999999999999999999', 'x'])
			WHEN ' layout=' THEN mut_pick(seed || ':v', ARRAY['classic', 'blocked', 'counting', 'scalable', '', 'CLASSIC', 'blockedx', 'classicclassicclassic', 'unknown'])
			WHEN ' k=' THEN mut_pick(seed || ':v', ARRAY['0', '1', '7', '8', '9', '32', '33', '255', '256', '-1', '', '008', 'a'])
			WHEN ' seed=' THEN mut_pick(seed || ':v', ARRAY['0', '18446744073709551615', '18446744073709551616', '-1', '', '99999999999999999999999'])
			WHEN ' bits=' THEN mut_pick(seed || ':v', ARRAY['0', '64', '255', '256', '320', '512', '100', '2147483648', '2147483712',
				'4294967296', '9223372036854775808', '18446744073709551615', '18446744073709551616', '-256',
				(bits * 2)::text, floor(bits / 2)::text, (bits + 64)::text, (bits - 64)::text, (bits + 8)::text, (bits + 256)::text, '0' || bits::text])
			WHEN ' items=' THEN mut_pick(seed || ':v', ARRAY['0', '1', '18446744073709551615', '18446744073709551616', '-1', '9223372036854775808', ''])
			WHEN ' flags=' THEN mut_pick(seed || ':v', ARRAY['0', '1', '2', '3', '4', 'ffffffff', '100000000', 'FF', 'g', '', '-1'])
			WHEN ' coll=' THEN mut_pick(seed || ':v', ARRAY['0', '1', 'ffffffff', '100000000', 'ABC', '-1', '', 'deadbeef'])
			WHEN ' family=' THEN mut_pick(seed || ':v', ARRAY['', 'integer_ops', 'text_ops', 'int8_ops', 'array(integer_ops)',
				repeat('a', 31), repeat('a', 32), repeat('b', 40), 'a b', 'fam"ly', 'x\y', 'enum:' || mut_nonascii(), 'integer_ops ', '(),.~-:_'])
			ELSE mut_pick(seed || ':v', ARRAY['', 'zz', hex || '0', substr(hex, 2), hex || hex, upper(hex),
				repeat('f', length(hex)), repeat('0', length(hex)), 'g' || substr(hex, 2), left(hex, length(hex) / 2),
				hex || ' ', replace(hex, '0', ' ')])
			END;
		RETURN mut_set_field(s, key, val);
	WHEN 7 THEN		-- swap two neighbours, or change the case of a span
		IF mut_rand(seed || ':c', 2) = 0 THEN
			RETURN overlay(s PLACING substr(s, pos + 1, 1) || substr(s, pos, 1) FROM pos FOR 2);
		END IF;
		RETURN overlay(s PLACING upper(substr(s, pos, n * 4)) FROM pos FOR n * 4);
	WHEN 8 THEN		-- a consistent resize: bits and hex changed together
		IF mut_rand(seed || ':r', 2) = 0 THEN
			RETURN mut_set_field(mut_set_field(s, ' bits=', (bits * 2)::text), ' hex=', hex || hex);
		END IF;
		RETURN mut_set_field(mut_set_field(s, ' bits=', floor(bits / 2)::text), ' hex=', left(hex, length(hex) / 2));
	ELSE			-- replace a whole token
		RETURN mut_pick(seed || ':w', ARRAY['', ' ', 'bloom:v1', 'bloom:', 'bloom:v1 layout=', s || s,
			replace(s, ' ', '  '), replace(s, ' ', chr(9)), replace(s, '=', ': '), ltrim(s, 'b'), ' ' || s, upper(s)]);
	END CASE;
END $$;

-- 1 to 3 mutations of the text form
CREATE FUNCTION mut_text(s text, seed text, OUT op text, OUT m text)
LANGUAGE plpgsql IMMUTABLE STRICT AS $$
DECLARE
	nops int := CASE WHEN mut_rand(seed || ':ops', 4) = 0 THEN 2 + mut_rand(seed || ':ops2', 2)::int ELSE 1 END;
	k int;
BEGIN
	m := s;
	op := '';
	FOR i IN 1 .. nops LOOP
		k := mut_rand(seed || ':k' || i, 10)::int;
		m := mut_text1(m, k, seed || ':' || i);
		op := op || CASE WHEN i > 1 THEN '+' ELSE '' END || k;
	END LOOP;
END $$;

-- big-endian bytes of a number (taken modulo 2^64)
CREATE FUNCTION mut_be(v numeric, nbytes int) RETURNS bytea
LANGUAGE sql IMMUTABLE STRICT AS $$
  SELECT substring(int8send((CASE WHEN w >= 9223372036854775808 THEN w - 18446744073709551616 ELSE w END)::int8)
                   FROM 9 - nbytes FOR nbytes)
  FROM (SELECT mod(mod(floor(v), 18446744073709551616) + 18446744073709551616, 18446744073709551616) AS w) x
$$;

-- One mutation of the binary form b (header: version 0, layout 1, scheme 2,
-- k 3, seed 4-11, nbits 12-19, nitems 20-27, flags 28-31, coll 32-35,
-- family 36-67; the bit array follows).
CREATE FUNCTION mut_bin1(b bytea, k int, seed text) RETURNS bytea
LANGUAGE plpgsql IMMUTABLE STRICT AS $$
DECLARE
	len int := length(b);
	hdr bool := mut_rand(seed || ':h', 2) = 0;
	pos int := CASE WHEN hdr OR len <= 68 THEN mut_rand(seed || ':pos', least(len, 68))::int
	                ELSE mut_rand(seed || ':pos', len)::int END;
	n int := 1 + mut_rand(seed || ':n', 4)::int;
	bits numeric := CASE WHEN len >= 20 THEN ('x' || encode(substring(b FROM 13 FOR 8), 'hex'))::bit(64)::bigint::numeric ELSE 256 END;
	payload bytea := substring(b FROM 69);
	field int;
	v numeric;
	r bytea := b;
BEGIN
	IF bits < 0 THEN
		bits := bits + 18446744073709551616;
	END IF;
	CASE k
	WHEN 0 THEN		-- overwrite 1..4 bytes
		IF len = 0 THEN
			RETURN mut_nbytes(seed, n);
		END IF;
		FOR i IN 0 .. n - 1 LOOP
			r := set_byte(r, (pos + i * 7) % len, mut_rand(seed || ':b' || i, 256)::int);
		END LOOP;
		RETURN r;
	WHEN 1 THEN		-- flip 1..4 bits
		IF len = 0 THEN
			RETURN '\x00'::bytea;
		END IF;
		FOR i IN 0 .. n - 1 LOOP
			pos := CASE WHEN hdr THEN mut_rand(seed || ':bit' || i, least(len, 68) * 8)::int
			            ELSE mut_rand(seed || ':bit' || i, len * 8)::int END;
			r := set_bit(r, pos, 1 - get_bit(r, pos));
		END LOOP;
		RETURN r;
	WHEN 2 THEN		-- truncate
		RETURN substring(b FROM 1 FOR mut_rand(seed || ':t', len)::int);
	WHEN 3 THEN		-- extend
		RETURN b || decode(mut_pick(seed || ':e', ARRAY[encode(mut_nbytes(seed, n * 5), 'hex'), '00', repeat('00', 8),
			repeat('ff', 32), encode(payload, 'hex')]), 'hex');
	WHEN 4, 5 THEN	-- an absurd or inconsistent header field
		field := mut_rand(seed || ':f', 9)::int;
		CASE field
		WHEN 0 THEN RETURN overlay(b PLACING mut_be(mut_pick(seed || ':v', ARRAY['0', '2', '255', '1'])::numeric, 1) FROM 1 FOR 1);
		WHEN 1 THEN RETURN overlay(b PLACING mut_be(mut_pick(seed || ':v', ARRAY['0', '1', '2', '3', '255', '128'])::numeric, 1) FROM 2 FOR 1);
		WHEN 2 THEN RETURN overlay(b PLACING mut_be(mut_pick(seed || ':v', ARRAY['0', '1', '2', '255'])::numeric, 1) FROM 3 FOR 1);
		WHEN 3 THEN RETURN overlay(b PLACING mut_be(mut_pick(seed || ':v', ARRAY['0', '1', '3', '7', '8', '9', '32', '33', '255'])::numeric, 1) FROM 4 FOR 1);
		WHEN 4 THEN RETURN overlay(b PLACING mut_be(mut_pick(seed || ':v', ARRAY['0', '1', '18446744073709551615', '9223372036854775808'])::numeric, 8) FROM 5 FOR 8);
		WHEN 5 THEN
			v := mut_pick(seed || ':v', ARRAY['0', '64', '100', '255', '256', '320', '2147483648', '2147483712',
				'4294967296', '9223372036854775808', '18446744073709551615', (bits * 2)::text,
				floor(bits / 2)::text, (bits + 64)::text, greatest(bits - 64, 0)::text, (bits + 8)::text,
				(bits + 256)::text, (bits + 18446744073709551616 / 2)::text])::numeric;
			RETURN overlay(b PLACING mut_be(v, 8) FROM 13 FOR 8);
		WHEN 6 THEN RETURN overlay(b PLACING mut_be(mut_pick(seed || ':v', ARRAY['0', '1', '18446744073709551615', '9223372036854775808', '9223372036854775807'])::numeric, 8) FROM 21 FOR 8);
		WHEN 7 THEN RETURN overlay(b PLACING mut_be(mut_pick(seed || ':v', ARRAY['0', '1', '2', '3', '4', '8', '2147483648', '4294967295'])::numeric, 4) FROM 29 FOR 4);
		ELSE RETURN overlay(b PLACING mut_be(mut_pick(seed || ':v', ARRAY['0', '1', '4294967295', '305419896'])::numeric, 4) FROM 33 FOR 4);
		END CASE;
	WHEN 6 THEN		-- the element family field
		RETURN overlay(b PLACING decode(mut_pick(seed || ':fam', ARRAY[
			repeat('61', 32),								-- no terminating NUL
			'696e74656765725f6f707300' || repeat('41', 20),	-- garbage after the NUL
			'696e74656765725f6f707320' || repeat('00', 20),	-- a space
			'7465787420' || repeat('00', 27),
			repeat('00', 32),								-- empty family
			'00' || repeat('61', 31),
			'696e74656765725f6f7073' || repeat('00', 21),	-- integer_ops
			'746578745f6f7073' || repeat('00', 24),			-- text_ops
			'c3a9' || repeat('00', 30),
			repeat('61', 31) || '00']), 'hex') FROM 37 FOR 32);
	WHEN 7 THEN		-- zero or fill a span (often the whole bit array)
		IF mut_rand(seed || ':z', 2) = 0 AND len > 68 THEN
			RETURN substring(b FROM 1 FOR 68) || decode(repeat(mut_pick(seed || ':zb', ARRAY['00', 'ff', 'a5']), len - 68), 'hex');
		END IF;
		RETURN overlay(b PLACING decode(repeat('00', n * 8), 'hex') FROM pos + 1 FOR n * 8);
	WHEN 8 THEN		-- a consistent resize: nbits and the bit array changed together
		IF mut_rand(seed || ':r', 2) = 0 THEN
			RETURN overlay(b PLACING mut_be(bits * 2, 8) FROM 13 FOR 8) || payload;
		END IF;
		RETURN overlay(substring(b FROM 1 FOR 68 + length(payload) / 2) PLACING mut_be(floor(bits / 2), 8) FROM 13 FOR 8);
	ELSE			-- another base filter's header on this bit array, or trivia
		RETURN decode(mut_pick(seed || ':w', ARRAY[
			encode(substring((SELECT bloom_to_bytea(f) FROM mut_base WHERE id = 1 + mut_rand(seed || ':o', 5)::int) FROM 1 FOR 68) || payload, 'hex'),
			'', '00', repeat('00', 68), repeat('ff', 68), encode(substring(b FROM 1 FOR 67), 'hex'),
			encode(substring(b FROM 1 FOR 68), 'hex'), encode(b || b, 'hex')]), 'hex');
	END CASE;
END $$;

CREATE FUNCTION mut_bin(b bytea, seed text, OUT op text, OUT m bytea)
LANGUAGE plpgsql IMMUTABLE STRICT AS $$
DECLARE
	nops int := CASE WHEN mut_rand(seed || ':ops', 4) = 0 THEN 2 + mut_rand(seed || ':ops2', 2)::int ELSE 1 END;
	k int;
BEGIN
	m := b;
	op := '';
	FOR i IN 1 .. nops LOOP
		k := mut_rand(seed || ':k' || i, 10)::int;
		m := mut_bin1(m, k, seed || ':' || i);
		op := op || CASE WHEN i > 1 THEN '+' ELSE '' END || k;
	END LOOP;
END $$;

-- Does an accepted filter behave?  'ok', or 'BAD: <what>'.
CREATE FUNCTION mut_check(f bloom) RETURNS text
LANGUAGE plpgsql AS $$
DECLARE
	i record;
	step text := 'bloom_info';
	t text;
	b bytea;
	g bloom;
	coll text;
BEGIN
	i := bloom_info(f);
	IF i.layout NOT IN ('classic', 'blocked') OR i.bits NOT BETWEEN 256 AND 2147483648
	   OR i.bits % 64 <> 0 OR i.bytes <> 72 + i.bits / 8 OR i.hashes NOT BETWEEN 1 AND 32
	   OR (i.layout = 'blocked' AND (i.hashes <> 8 OR i.bits % 256 <> 0))
	   OR i.bits_set NOT BETWEEN 0 AND i.bits OR i.fill_ratio NOT BETWEEN 0 AND 1
	   OR i.estimated_card = 'NaN' OR i.estimated_card < 0 OR i.estimated_card = 'Infinity'
	   OR i.estimated_fpr = 'NaN' OR i.estimated_fpr NOT BETWEEN 0 AND 1
	   OR (i.bits_set = 0) <> (i.estimated_card = 0)
	   OR i.format_version <> 1 OR i.items < 0 OR i.element_family IS NULL THEN
		RETURN 'BAD: bloom_info ' || row(i.*)::text;
	END IF;

	step := 'bloom_estimate_card';
	IF bloom_estimate_card(f) IS DISTINCT FROM i.estimated_card THEN
		RETURN 'BAD: bloom_estimate_card differs from bloom_info';
	END IF;

	step := 'text round trip';
	t := f::text;
	IF t::bloom::text IS DISTINCT FROM t OR NOT (t::bloom = f) THEN
		RETURN 'BAD: text round trip';
	END IF;
	coll := mut_get_field(t, ' coll=');

	step := 'binary round trip';
	b := bloom_to_bytea(f);
	IF length(b) <> 68 + i.bits / 8 OR bloom_to_bytea(b::bloom) IS DISTINCT FROM b
	   OR b::bloom::text IS DISTINCT FROM t THEN
		RETURN 'BAD: binary round trip';
	END IF;

	step := 'probing';
	IF i.element_family = '' THEN
		IF bloom_contains(f, 12345) OR bloom_contains(f, 'probe'::text) OR i.bits_set <> 0 THEN
			RETURN 'BAD: a filter without a family is not empty';
		END IF;
		g := f || 12345;
		IF NOT bloom_contains(g, 12345) OR (bloom_info(g)).element_family <> 'integer_ops' THEN
			RETURN 'BAD: false negative after adding to an empty filter';
		END IF;
	ELSIF i.element_family IN ('integer_ops', 'text_ops') THEN
		BEGIN
			IF i.element_family = 'integer_ops' THEN
				PERFORM bloom_contains(f, 12345);
				g := f || 12345;
				IF NOT bloom_contains(g, 12345) OR NOT bloom_contains(g, 12345::int8)
				   OR NOT bloom_contains(bloom_union(f, g), 12345) THEN
					RETURN 'BAD: false negative (int)';
				END IF;
			ELSE
				PERFORM bloom_contains(f, 'probe'::text);
				g := f || 'probe'::text;
				IF NOT bloom_contains(g, 'probe'::text) OR NOT bloom_contains(bloom_union(g, f), 'probe'::text) THEN
					RETURN 'BAD: false negative (text)';
				END IF;
			END IF;
			IF coll <> '0' THEN
				RETURN 'BAD: probe with a mismatched collation fingerprint accepted';
			END IF;
		EXCEPTION WHEN collation_mismatch THEN
			IF coll = '0' THEN
				RETURN 'BAD: collation mismatch without a fingerprint';
			END IF;
			g := NULL;
		END;
	ELSE
		BEGIN
			PERFORM bloom_contains(f, 12345);
			RETURN 'BAD: probe of a foreign family ' || i.element_family || ' accepted';
		EXCEPTION WHEN datatype_mismatch THEN
			NULL;
		END;
	END IF;

	step := 'set operations';
	IF NOT (bloom_union(f, f) = f) OR NOT (bloom_intersect(f, f) = f) THEN
		RETURN 'BAD: f | f or f & f differs from f';
	END IF;

	step := 'folding';
	BEGIN
		IF (bloom_info(bloom_fold(f, 2))).bits * 2 <> i.bits THEN
			RETURN 'BAD: fold by 2 has the wrong size';
		END IF;
		IF bloom_fold(f, 2)::text::bloom::text IS DISTINCT FROM bloom_fold(f, 2)::text THEN
			RETURN 'BAD: folded filter does not round trip';
		END IF;
		IF g IS NOT NULL AND i.element_family IN ('', 'integer_ops')
		   AND NOT bloom_contains(bloom_fold(g, 2), 12345) THEN
			RETURN 'BAD: false negative after folding';
		END IF;
	EXCEPTION WHEN invalid_parameter_value THEN
		NULL;	-- not foldable by 2 (odd number of units, or too small)
	END;
	RETURN 'ok';
EXCEPTION WHEN OTHERS THEN
	RETURN 'BAD: ' || step || ' raised ' || SQLSTATE || ': ' || SQLERRM;
END $$;

-- 'valid' (and the checks passed), the SQLSTATE of the rejection, or 'BAD: ...'
CREATE FUNCTION mut_try_text(s text) RETURNS text
LANGUAGE plpgsql AS $$
DECLARE
	f bloom;
	c text;
BEGIN
	BEGIN
		f := s::bloom;
	EXCEPTION WHEN OTHERS THEN
		GET STACKED DIAGNOSTICS c = PG_EXCEPTION_DETAIL;
		RETURN SQLSTATE || ' ' || c;
	END;
	c := mut_check(f);
	RETURN CASE WHEN c = 'ok' THEN 'valid' ELSE c END;
END $$;

CREATE FUNCTION mut_try_bin(b bytea) RETURNS text
LANGUAGE plpgsql AS $$
DECLARE
	f bloom;
	c text;
BEGIN
	BEGIN
		f := b::bloom;
	EXCEPTION WHEN OTHERS THEN
		GET STACKED DIAGNOSTICS c = PG_EXCEPTION_DETAIL;
		RETURN SQLSTATE || ' ' || c;
	END;
	IF bloom_to_bytea(f) IS DISTINCT FROM b THEN
		RETURN 'BAD: accepted binary input does not re-encode to itself';
	END IF;
	c := mut_check(f);
	RETURN CASE WHEN c = 'ok' THEN 'valid' ELSE c END;
END $$;

-- the cases: 5 base filters x 1000 mutations, of each form
CREATE TABLE mut_results (form text, base int, n int, op text, outcome text,
						  input_text text, input_bin bytea);
INSERT INTO mut_results (form, base, n, op, input_text)
SELECT 'text', b.id, n, m.op, m.m
FROM mut_base b, generate_series(1, 1000) n, LATERAL mut_text(b.f::text, 't' || b.id || ':' || n) m;
INSERT INTO mut_results (form, base, n, op, input_bin)
SELECT 'binary', b.id, n, m.op, m.m
FROM mut_base b, generate_series(1, 1000) n, LATERAL mut_bin(bloom_to_bytea(b.f), 'b' || b.id || ':' || n) m;
UPDATE mut_results SET outcome = mut_try_text(input_text) WHERE form = 'text';
UPDATE mut_results SET outcome = mut_try_bin(input_bin) WHERE form = 'binary';

SELECT form,
       count(*) AS cases_tried,
       count(DISTINCT coalesce(input_text, encode(input_bin, 'hex'))) > count(*) / 2 AS mostly_distinct,
       count(*) FILTER (WHERE outcome = 'valid') > 500 AS many_accepted,
       count(*) FILTER (WHERE outcome <> 'valid') > 2000 AS many_rejected,
       bool_and(outcome = 'valid' OR outcome LIKE '22%') AS all_errors_are_22xxx,
       bool_and(outcome NOT LIKE 'BAD%') AS accepted_ok,
       array_agg(DISTINCT left(outcome, 5)) FILTER (WHERE outcome <> 'valid') AS sqlstates
FROM mut_results GROUP BY form ORDER BY form;
-- the mutations reach most of the decoders' distinct rejection reasons
SELECT form, count(DISTINCT substr(outcome, 7)) >= 12 AS many_distinct_reasons
FROM mut_results WHERE outcome LIKE '22%' GROUP BY form ORDER BY form;
-- violations (none expected)
SELECT form, base, n, op, outcome, left(coalesce(input_text, encode(input_bin, 'hex')), 120) AS input
FROM mut_results WHERE NOT (outcome = 'valid' OR outcome LIKE '22%') ORDER BY form, base, n LIMIT 20;
-- every kind of mutation was used, and most were sometimes accepted (6 of
-- the 10 text kinds: inserted characters land in the hex digits, or in the
-- family and coll fields, which input checks too)
SELECT form, count(DISTINCT split_part(op, '+', 1)) AS mutation_kinds_used,
       count(DISTINCT split_part(op, '+', 1)) FILTER (WHERE outcome = 'valid') >= 6 AS most_kinds_accepted_sometimes
FROM mut_results GROUP BY form ORDER BY form;

-- Hand-written absurd headers, text form ('valid', or the SQLSTATE).
CREATE FUNCTION mut_short(outcome text) RETURNS text LANGUAGE sql IMMUTABLE AS
$$ SELECT CASE WHEN outcome LIKE 'BAD%' THEN outcome ELSE left(outcome, 5) END $$;
SELECT c AS text_case, mut_short(mut_try_text(s)) AS outcome
FROM (SELECT (SELECT f::text FROM mut_base WHERE id = 2) AS good) g,
LATERAL (VALUES
  ('unchanged', good),
  ('bits=0', mut_set_field(good, ' bits=', '0')),
  ('bits=2^64-1', mut_set_field(good, ' bits=', '18446744073709551615')),
  ('bits=2^64 (overflow)', mut_set_field(good, ' bits=', '18446744073709551616')),
  ('bits=2^31+64', mut_set_field(good, ' bits=', '2147483712')),
  ('bits=2^31, short hex', mut_set_field(good, ' bits=', '2147483648')),
  ('bits=520 (not x64)', mut_set_field(good, ' bits=', '520')),
  ('k=0', mut_set_field(good, ' k=', '0')),
  ('k=255', mut_set_field(good, ' k=', '255')),
  ('k=256', mut_set_field(good, ' k=', '256')),
  ('version 2', mut_set_field(good, 'bloom:v', '2')),
  ('version 0', mut_set_field(good, 'bloom:v', '0')),
  ('layout=counting', mut_set_field(good, ' layout=', 'counting')),
  ('layout=blocked, k=3', mut_set_field(good, ' layout=', 'blocked')),
  ('flags=4', mut_set_field(good, ' flags=', '4')),
  ('flags=2^32', mut_set_field(good, ' flags=', '100000000')),
  ('coll=2^32', mut_set_field(good, ' coll=', '100000000')),
  ('family of 31 chars', mut_set_field(good, ' family=', repeat('a', 31))),
  ('family of 32 chars', mut_set_field(good, ' family=', repeat('a', 32))),
  ('family with a space', mut_set_field(good, ' family=', 'integer ops')),
  ('empty family, bits set', mut_set_field(good, ' family=', '')),
  ('hex one digit short', left(good, -1)),
  ('hex one digit long', good || '0'),
  ('hex with a non-hex digit', overlay(good PLACING 'g' FROM length(good) FOR 1)),
  ('hex upper case', mut_set_field(good, ' hex=', upper(mut_get_field(good, ' hex=')))),
  ('leading zeros', mut_set_field(good, ' k=', '003')),
  ('trailing space', good || ' '),
  ('empty', ''),
  ('header only', 'bloom:v1 layout=classic k=3 seed=7 bits=512 items=0 flags=0 coll=0 family= hex=')
) v(c, s);

-- Hand-written absurd headers, binary form.
SELECT c AS binary_case, mut_short(mut_try_bin(b)) AS outcome
FROM (SELECT bloom_to_bytea(f) AS good FROM mut_base WHERE id = 1) g,
LATERAL (VALUES
  ('unchanged', good),
  ('empty', '\x'::bytea),
  ('header only', substring(good FROM 1 FOR 68)),
  ('one byte short of a header', substring(good FROM 1 FOR 67)),
  ('one byte short', substring(good FROM 1 FOR length(good) - 1)),
  ('one byte long', good || '\x00'::bytea),
  ('version 2', set_byte(good, 0, 2)),
  ('version 0', set_byte(good, 0, 0)),
  ('layout 2 (counting)', set_byte(good, 1, 2)),
  ('layout 255', set_byte(good, 1, 255)),
  ('layout classic, k=8', set_byte(good, 1, 0)),
  ('scheme 1 (1.0, 1.1)', set_byte(good, 2, 1)),
  ('scheme 3 (parquet, reserved)', set_byte(good, 2, 3)),
  ('scheme 0', set_byte(good, 2, 0)),
  ('k=0', set_byte(good, 3, 0)),
  ('k=255', set_byte(good, 3, 255)),
  ('nbits=0', overlay(good PLACING mut_be(0, 8) FROM 13 FOR 8)),
  ('nbits=2^64-1', overlay(good PLACING mut_be(18446744073709551615, 8) FROM 13 FOR 8)),
  ('nbits=2^31+256', overlay(good PLACING mut_be(2147483904, 8) FROM 13 FOR 8)),
  ('nbits+2^61 (length wraps)', overlay(good PLACING mut_be(10752 + 2305843009213693952, 8) FROM 13 FOR 8)),
  ('nbits=10816 (not x256)', overlay(good PLACING mut_be(10816, 8) FROM 13 FOR 8) || '\x0000000000000000'::bytea),
  ('nbits=10760 (not x64)', overlay(good PLACING mut_be(10760, 8) FROM 13 FOR 8) || '\x00'::bytea),
  ('nitems=2^64-1', overlay(good PLACING mut_be(18446744073709551615, 8) FROM 21 FOR 8)),
  ('unknown flag', overlay(good PLACING mut_be(4, 4) FROM 29 FOR 4)),
  ('family without NUL', overlay(good PLACING decode(repeat('61', 32), 'hex') FROM 37 FOR 32)),
  ('family padding garbage', overlay(good PLACING decode('696e74656765725f6f707300ff', 'hex') FROM 37 FOR 13)),
  ('family invalid char', set_byte(good, 36, 32)),
  ('empty family, bits set', overlay(good PLACING decode(repeat('00', 32), 'hex') FROM 37 FOR 32)),
  ('empty family, no bits, items', overlay(substring(bloom_to_bytea(bloom_empty(10)) FROM 1 FOR 20)
     PLACING mut_be(1, 8) FROM 21 FOR 8) || substring(bloom_to_bytea(bloom_empty(10)) FROM 29))
) v(c, b);

-- bloom_recv itself (binary COPY), on 250 of the binary cases: every value
-- must get the same verdict as ::bytea::bloom, and accepted values must
-- copy out and back in unchanged.
SELECT format('/tmp/bloomset_regress_mutation_%s.bin', current_setting('port')) AS mut_path \gset
CREATE TABLE mut_copy_in (f bloom);
CREATE FUNCTION mut_try_recv(b bytea, path text) RETURNS text
LANGUAGE plpgsql AS $$
DECLARE
	c text;
	f bloom;
BEGIN
	TRUNCATE mut_copy_in;
	EXECUTE format('COPY (SELECT %L::bytea) TO %L WITH (FORMAT binary)', b, path);
	BEGIN
		EXECUTE format('COPY mut_copy_in FROM %L WITH (FORMAT binary)', path);
	EXCEPTION WHEN OTHERS THEN
		GET STACKED DIAGNOSTICS c = PG_EXCEPTION_DETAIL;
		RETURN SQLSTATE || ' ' || c;
	END;
	SELECT mut_copy_in.f INTO f FROM mut_copy_in;
	IF bloom_to_bytea(f) IS DISTINCT FROM b THEN
		RETURN 'BAD: recv changed the value';
	END IF;
	c := mut_check(f);
	RETURN CASE WHEN c = 'ok' THEN 'valid' ELSE c END;
END $$;
CREATE TABLE mut_recv AS
SELECT base, n, outcome AS from_bytea, mut_try_recv(input_bin, :'mut_path') AS recv
FROM mut_results WHERE form = 'binary' AND n % 16 = 0;
SELECT count(*) AS recv_cases, bool_and(recv = from_bytea) AS recv_agrees_with_bytea_cast,
       count(*) FILTER (WHERE recv = 'valid') > 10 AS some_accepted,
       bool_and(recv = 'valid' OR recv LIKE '22%') AS all_errors_are_22xxx
FROM mut_recv;
SELECT * FROM mut_recv WHERE recv IS DISTINCT FROM from_bytea LIMIT 10;

-- every accepted mutated value through COPY TO/FROM in both formats
CREATE TABLE mut_accepted AS
SELECT row_number() OVER (ORDER BY form, base, n) AS id,
       CASE form WHEN 'text' THEN input_text::bloom ELSE input_bin::bloom END AS f
FROM mut_results WHERE outcome = 'valid';
COPY mut_accepted TO :'mut_path' WITH (FORMAT binary);
CREATE TABLE mut_accepted_bin (LIKE mut_accepted);
COPY mut_accepted_bin FROM :'mut_path' WITH (FORMAT binary);
COPY mut_accepted TO :'mut_path';
CREATE TABLE mut_accepted_txt (LIKE mut_accepted);
COPY mut_accepted_txt FROM :'mut_path';
SELECT count(*) > 500 AS many_accepted_values,
       count(*) = (SELECT count(*) FROM mut_accepted_bin) AND count(*) = (SELECT count(*) FROM mut_accepted_txt) AS all_copied,
       bool_and(bloom_to_bytea(a.f) = bloom_to_bytea(b.f) AND bloom_to_bytea(a.f) = bloom_to_bytea(t.f)) AS copy_round_trips_identical
FROM mut_accepted a JOIN mut_accepted_bin b USING (id) JOIN mut_accepted_txt t USING (id);

-- The other filter types share the stored format: counting_bloom (4-bit
-- counters) and scalable_bloom (a payload of meta data and complete
-- sub-filter images, each validated on input).  Their text input gets the
-- same text mutations, their binary input (recv, through binary COPY) the
-- same byte mutations.
CREATE TABLE mut_base2 (typ text, id int, t text, b bytea);
INSERT INTO mut_base2
SELECT 'counting_bloom', 1, f::text, counting_bloom_send(f)
FROM (SELECT counting_bloom_agg(x, 1000, 0.01) AS f FROM generate_series(1, 500) x) s
UNION ALL SELECT 'counting_bloom', 2, f::text, counting_bloom_send(f) FROM (SELECT counting_bloom_empty(10) AS f) s
UNION ALL SELECT 'counting_bloom', 3, f::text, counting_bloom_send(f) FROM (SELECT counting_bloom_empty(50) || 7 || 8 AS f) s
UNION ALL SELECT 'scalable_bloom', 1, f::text, scalable_bloom_send(f)
FROM (SELECT scalable_bloom_agg(x, 10, 0.01) AS f FROM generate_series(1, 100) x) s
UNION ALL SELECT 'scalable_bloom', 2, f::text, scalable_bloom_send(f) FROM (SELECT scalable_bloom_empty(10, 0.01, 2) AS f) s
UNION ALL SELECT 'scalable_bloom', 3, f::text, scalable_bloom_send(f) FROM (SELECT scalable_bloom_empty(5, 0.1, 3) || 'a'::text || 'b'::text AS f) s;

-- Does an accepted counting_bloom behave?  'ok', or 'BAD: <what>'.
CREATE FUNCTION mut_check_counting(f counting_bloom) RETURNS text
LANGUAGE plpgsql AS $$
DECLARE
	i record;
	step text := 'counting_bloom_info';
	t text;
	g counting_bloom;
	coll text;
BEGIN
	i := counting_bloom_info(f);
	IF i.counters < 64 OR i.hashes NOT BETWEEN 1 AND 32 OR i.nonzero_counters NOT BETWEEN 0 AND i.counters
	   OR i.saturated_counters NOT BETWEEN 0 AND i.nonzero_counters
	   OR i.estimated_fpr = 'NaN' OR i.estimated_fpr NOT BETWEEN 0 AND 1 OR i.items < 0
	   OR i.bytes <> 72 + i.counters / 2 OR i.element_family IS NULL THEN
		RETURN 'BAD: counting_bloom_info ' || row(i.*)::text;
	END IF;
	step := 'text round trip';
	t := f::text;
	IF t::counting_bloom::text IS DISTINCT FROM t THEN
		RETURN 'BAD: text round trip';
	END IF;
	coll := mut_get_field(t, ' coll=');
	step := 'probing';
	IF i.element_family = '' OR (i.element_family = 'integer_ops' AND coll = '0') THEN
		IF i.element_family = '' AND f @> 12345 THEN
			RETURN 'BAD: a filter without a family is not empty';
		END IF;
		g := f || 12345;
		IF NOT g @> 12345 OR NOT (g | f) @> 12345 OR NOT ((g || 12345) - 12345) @> 12345 THEN
			RETURN 'BAD: false negative';
		END IF;
		g := g - 12345;
	ELSE
		BEGIN
			PERFORM f @> 12345;
			RETURN 'BAD: probe of a foreign family or collation accepted';
		EXCEPTION WHEN datatype_mismatch OR collation_mismatch THEN
			NULL;
		END;
	END IF;
	step := 'conversion to bloom';
	-- (a filter of fewer than 256 counters has no valid bloom image: see
	-- the hand-written cases below)
	IF i.counters >= 256 AND mut_check(f::bloom) <> 'ok' THEN
		RETURN 'BAD: the bloom image does not behave: ' || mut_check(f::bloom);
	END IF;
	RETURN 'ok';
EXCEPTION WHEN OTHERS THEN
	RETURN 'BAD: ' || step || ' raised ' || SQLSTATE || ': ' || SQLERRM;
END $$;

-- Does an accepted scalable_bloom behave?  'ok', or 'BAD: <what>'.
CREATE FUNCTION mut_check_scalable(f scalable_bloom) RETURNS text
LANGUAGE plpgsql AS $$
DECLARE
	nsub int;
	last record;
	step text := 'scalable_bloom_info';
	t text;
	g scalable_bloom;
	coll text;
	fam text;
	est float8;
BEGIN
	SELECT count(*) INTO nsub FROM scalable_bloom_info(f) i
	WHERE i.bits BETWEEN 256 AND 2147483648 AND i.hashes BETWEEN 1 AND 32 AND i.items >= 0
	  AND i.estimated_fpr BETWEEN 0 AND 1 AND i.capacity > 0 AND i.target_fpr > 0;
	SELECT * INTO last FROM scalable_bloom_info(f) ORDER BY sub DESC LIMIT 1;
	t := f::text;
	IF nsub IS DISTINCT FROM (SELECT count(*) FROM scalable_bloom_info(f))::int
	   OR nsub <> mut_get_field(t, ' k=')::int OR nsub NOT BETWEEN 1 AND 32 THEN
		RETURN 'BAD: scalable_bloom_info';
	END IF;
	step := 'scalable_bloom_estimate_card';
	est := scalable_bloom_estimate_card(f);
	IF est = 'NaN' OR est < 0 OR est = 'Infinity' THEN
		RETURN 'BAD: scalable_bloom_estimate_card ' || est;
	END IF;
	step := 'text round trip';
	IF t::scalable_bloom::text IS DISTINCT FROM t THEN
		RETURN 'BAD: text round trip';
	END IF;
	coll := mut_get_field(t, ' coll=');
	fam := mut_get_field(t, ' family=');
	step := 'probing';
	IF fam = '' OR (fam = 'integer_ops' AND coll = '0') THEN
		IF fam = '' AND scalable_bloom_contains(f, 12345) THEN
			RETURN 'BAD: a filter without a family is not empty';
		END IF;
		-- adding may append a sub-filter sized from the (mutated) meta
		-- data: only where that stays small
		IF last.items < last.capacity OR last.capacity <= 4096 THEN
			g := f || 12345;
			IF NOT scalable_bloom_contains(g, 12345) OR NOT scalable_bloom_contains(scalable_bloom_union(g, f), 12345) THEN
				RETURN 'BAD: false negative';
			END IF;
		END IF;
	ELSE
		BEGIN
			PERFORM scalable_bloom_contains(f, 12345);
			RETURN 'BAD: probe of a foreign family or collation accepted';
		EXCEPTION WHEN datatype_mismatch OR collation_mismatch THEN
			NULL;
		END;
	END IF;
	RETURN 'ok';
EXCEPTION WHEN OTHERS THEN
	RETURN 'BAD: ' || step || ' raised ' || SQLSTATE || ': ' || SQLERRM;
END $$;

CREATE FUNCTION mut_try_typed_text(typ text, s text) RETURNS text
LANGUAGE plpgsql AS $$
DECLARE
	c text;
BEGIN
	BEGIN
		IF typ = 'counting_bloom' THEN
			c := mut_check_counting(s::counting_bloom);
		ELSIF typ = 'scalable_bloom' THEN
			c := mut_check_scalable(s::scalable_bloom);
		ELSE
			c := mut_check(s::bloom);
		END IF;
	EXCEPTION WHEN OTHERS THEN
		GET STACKED DIAGNOSTICS c = PG_EXCEPTION_DETAIL;
		RETURN SQLSTATE || ' ' || c;
	END;
	RETURN CASE WHEN c = 'ok' THEN 'valid' ELSE c END;
END $$;

CREATE TABLE mut_copy_counting (f counting_bloom);
CREATE TABLE mut_copy_scalable (f scalable_bloom);
CREATE FUNCTION mut_try_typed_recv(typ text, b bytea, path text) RETURNS text
LANGUAGE plpgsql AS $$
DECLARE
	c text;
	tab text := CASE typ WHEN 'counting_bloom' THEN 'mut_copy_counting' ELSE 'mut_copy_scalable' END;
	t text;
BEGIN
	EXECUTE format('TRUNCATE %I', tab);
	EXECUTE format('COPY (SELECT %L::bytea) TO %L WITH (FORMAT binary)', b, path);
	BEGIN
		EXECUTE format('COPY %I FROM %L WITH (FORMAT binary)', tab, path);
	EXCEPTION WHEN OTHERS THEN
		GET STACKED DIAGNOSTICS c = PG_EXCEPTION_DETAIL;
		RETURN SQLSTATE || ' ' || c;
	END;
	EXECUTE format('SELECT f::text FROM %I', tab) INTO t;
	RETURN mut_try_typed_text(typ, t);
END $$;

CREATE TABLE mut_results2 (typ text, form text, base int, n int, op text, outcome text,
						   input_text text, input_bin bytea);
INSERT INTO mut_results2 (typ, form, base, n, op, input_text)
SELECT b.typ, 'text', b.id, n, m.op, m.m
FROM mut_base2 b, generate_series(1, 300) n, LATERAL mut_text(b.t, 'c' || b.typ || b.id || ':' || n) m;
INSERT INTO mut_results2 (typ, form, base, n, op, input_bin)
SELECT b.typ, 'binary', b.id, n, m.op, m.m
FROM mut_base2 b, generate_series(1, 60) n, LATERAL mut_bin(b.b, 'd' || b.typ || b.id || ':' || n) m;
UPDATE mut_results2 SET outcome = mut_try_typed_text(typ, input_text) WHERE form = 'text';
UPDATE mut_results2 SET outcome = mut_try_typed_recv(typ, input_bin, :'mut_path') WHERE form = 'binary';
SELECT typ, form, count(*) AS cases_tried,
       count(*) FILTER (WHERE outcome = 'valid') > 10 AS some_accepted,
       count(*) FILTER (WHERE outcome <> 'valid') > 10 AS some_rejected,
       bool_and(outcome = 'valid' OR outcome LIKE '22%') AS all_errors_are_22xxx,
       bool_and(outcome NOT LIKE 'BAD%') AS accepted_ok
FROM mut_results2 GROUP BY typ, form ORDER BY typ, form;
-- violations (none expected)
SELECT typ, form, base, n, op, outcome, left(coalesce(input_text, encode(input_bin, 'hex')), 100) AS input
FROM mut_results2 WHERE NOT (outcome = 'valid' OR outcome LIKE '22%') ORDER BY 1, 2, 3, 4 LIMIT 20;

-- Hand-written cases for these types.
SELECT c AS typed_case, mut_short(mut_try_typed_text(typ, s)) AS outcome
FROM (SELECT t AS sc FROM mut_base2 WHERE typ = 'scalable_bloom' AND id = 3) g,
     (SELECT t AS cc FROM mut_base2 WHERE typ = 'counting_bloom' AND id = 3) h,
LATERAL (VALUES
  ('counting: unchanged', 'counting_bloom', cc),
  ('counting: as bloom', 'bloom', cc),
  ('counting: k=0', 'counting_bloom', mut_set_field(cc, ' k=', '0')),
  ('counting: k=33', 'counting_bloom', mut_set_field(cc, ' k=', '33')),
  ('counting: bits=320', 'counting_bloom', mut_set_field(cc, ' bits=', '320')),
  ('counting: layout=classic', 'counting_bloom', mut_set_field(cc, ' layout=', 'classic')),
  ('scalable: unchanged', 'scalable_bloom', sc),
  ('scalable: layout=blocked', 'scalable_bloom', mut_set_field(sc, ' layout=', 'blocked')),
  ('scalable: k=0 (no sub-filters)', 'scalable_bloom', mut_set_field(sc, ' k=', '0')),
  ('scalable: k=2 (one missing)', 'scalable_bloom', mut_set_field(sc, ' k=', '2')),
  ('scalable: k=33', 'scalable_bloom', mut_set_field(sc, ' k=', '33')),
  ('scalable: growth 1', 'scalable_bloom', overlay(sc PLACING '0000000000000001' FROM strpos(sc, 'hex=') + 4 + 32 FOR 16)),
  ('scalable: growth 17', 'scalable_bloom', overlay(sc PLACING '0000000000000011' FROM strpos(sc, 'hex=') + 4 + 32 FOR 16)),
  ('scalable: capacity 0', 'scalable_bloom', overlay(sc PLACING '0000000000000000' FROM strpos(sc, 'hex=') + 4 FOR 16)),
  ('scalable: fpr NaN', 'scalable_bloom', overlay(sc PLACING '7ff8000000000000' FROM strpos(sc, 'hex=') + 4 + 16 FOR 16)),
  ('scalable: sub-filter version 2', 'scalable_bloom', overlay(sc PLACING '02' FROM strpos(sc, 'hex=') + 4 + 48 FOR 2)),
  ('scalable: sub-filter counting', 'scalable_bloom', overlay(sc PLACING '02' FROM strpos(sc, 'hex=') + 4 + 50 FOR 2)),
  ('scalable: sub-filter k=0', 'scalable_bloom', overlay(sc PLACING '00' FROM strpos(sc, 'hex=') + 4 + 54 FOR 2)),
  ('scalable: sub-filter nbits 2^63', 'scalable_bloom', overlay(sc PLACING '80' FROM strpos(sc, 'hex=') + 4 + 72 FOR 2)),
  ('scalable: sub-filter seed differs', 'scalable_bloom', overlay(sc PLACING '01' FROM strpos(sc, 'hex=') + 4 + 70 FOR 2)),
  ('scalable: sub-filter family cleared', 'scalable_bloom', overlay(sc PLACING repeat('0', 22) FROM strpos(sc, 'hex=') + 4 + 120 FOR 22)),
  ('scalable: payload one word short', 'scalable_bloom', left(mut_set_field(sc, ' bits=', (mut_get_field(sc, ' bits=')::int - 64)::text), -16)),
  ('scalable: payload one word long', 'scalable_bloom', mut_set_field(sc, ' bits=', (mut_get_field(sc, ' bits=')::int + 64)::text) || repeat('0', 16))
) v(c, typ, s);
-- Two bugs this test found (now fixed): a scalable sub-filter of layout
-- "scalable" was accepted and then answered false for items it held; a
-- counting filter of fewer than 256 counters (counting_bloom_agg over no
-- rows) converted to a bloom value of fewer than 256 bits.
SELECT mut_short(mut_try_typed_text('scalable_bloom',
         overlay(sc PLACING '03' FROM strpos(sc, 'hex=') + 4 + 50 FOR 2))) AS nested_scalable_sub_filter
FROM (SELECT (scalable_bloom_empty(10, 0.01, 2) || 'a'::text)::text AS sc) s;
CREATE FUNCTION mut_sqlstate(q text) RETURNS text LANGUAGE plpgsql AS $$
BEGIN
	EXECUTE q;
	RETURN 'ok';
EXCEPTION WHEN OTHERS THEN
	RETURN SQLSTATE;
END $$;
SELECT mut_sqlstate('SELECT counting_bloom_agg(x, 10, 0.01)::bloom::text FROM generate_series(1, 0) x')
         AS empty_counting_agg_as_bloom,
       mut_sqlstate('SELECT counting_bloom_agg(x, 10, 0.01)::bloom::text FROM generate_series(1, 3) x')
         AS counting_agg_as_bloom;

-- The aggregates' support functions.  SQL cannot pass them garbage directly:
-- an internal argument cannot be written.
SELECT bloom_agg_deserial('\x00'::bytea, NULL);
SELECT bloom_agg_deserial('\x00'::bytea, NULL::internal);
SELECT bloom_setop_deserial('\xdeadbeef'::bytea, NULL::internal);
SELECT bloom_agg_combine(NULL::internal, NULL::internal);
SELECT bloom_agg_serial(NULL::internal);
-- ... but an aggregate (a superuser's: the transition type is internal) can
-- pair one serializer with the other's deserializer; each deserializer then
-- gets a well-formed state of the wrong kind, and must reject it cleanly
-- (22P03) in a parallel plan.
CREATE AGGREGATE mut_foreign_agg(anyelement) (
	SFUNC = bloom_agg_trans, STYPE = internal, FINALFUNC = bloom_agg_final,
	COMBINEFUNC = bloom_agg_combine, SERIALFUNC = bloom_agg_serial,
	DESERIALFUNC = bloom_setop_deserial, PARALLEL = SAFE);
CREATE AGGREGATE mut_foreign_sized_agg(anyelement, bigint, float8) (
	SFUNC = bloom_agg_trans_sized, STYPE = internal, FINALFUNC = bloom_agg_final,
	COMBINEFUNC = bloom_agg_combine, SERIALFUNC = bloom_agg_serial,
	DESERIALFUNC = bloom_setop_deserial, PARALLEL = SAFE);
CREATE AGGREGATE mut_foreign_union(bloom) (
	SFUNC = bloom_union_trans, STYPE = internal, FINALFUNC = bloom_union_final,
	COMBINEFUNC = bloom_union_combine, SERIALFUNC = bloom_setop_serial,
	DESERIALFUNC = bloom_agg_deserial, PARALLEL = SAFE);
-- the value aggregates of the three kinds share one state design: a state
-- says its kind, and another kind's deserializer rejects it
CREATE AGGREGATE mut_foreign_counting(anyelement) (
	SFUNC = counting_bloom_agg_auto_trans, STYPE = internal, FINALFUNC = counting_bloom_agg_final,
	COMBINEFUNC = counting_bloom_agg_combine, SERIALFUNC = counting_bloom_agg_auto_serial,
	DESERIALFUNC = bloom_agg_deserial, PARALLEL = SAFE);
CREATE AGGREGATE mut_foreign_scalable(anyelement, bigint, float8) (
	SFUNC = scalable_bloom_agg_trans, STYPE = internal, FINALFUNC = scalable_bloom_agg_final,
	COMBINEFUNC = scalable_bloom_agg_combine, SERIALFUNC = scalable_bloom_agg_serial,
	DESERIALFUNC = counting_bloom_agg_deserial, PARALLEL = SAFE);
CREATE TABLE mut_par AS SELECT x, bloom_empty(64, 3, 1) || x AS f FROM generate_series(1, 3000) x;
ANALYZE mut_par;
SET parallel_setup_cost = 0;
SET parallel_tuple_cost = 0;
SET min_parallel_table_scan_size = 0;
SET max_parallel_workers_per_gather = 2;
SET parallel_leader_participation = off;
EXPLAIN (COSTS OFF) SELECT mut_foreign_agg(x) FROM mut_par;
EXPLAIN (COSTS OFF) SELECT mut_foreign_union(f) FROM mut_par;
SELECT mut_foreign_agg(x) FROM mut_par;
SELECT mut_foreign_sized_agg(x, 1000, 0.01) FROM mut_par;
SELECT mut_foreign_union(f) FROM mut_par;
SELECT mut_foreign_counting(x) FROM mut_par;
SELECT mut_foreign_scalable(x, 1000, 0.01) FROM mut_par;
-- the real aggregates still work in the same plan shape
SELECT bloom_contains(bloom_agg(x), 2999) AS agg_ok,
       bloom_contains(bloom_agg(x, 1000, 0.01), 2999) AS sized_agg_ok,
       bloom_contains(bloom_union_agg(f), 2998) AS union_ok
FROM mut_par;
RESET parallel_setup_cost;
RESET parallel_tuple_cost;
RESET min_parallel_table_scan_size;
RESET max_parallel_workers_per_gather;
RESET parallel_leader_participation;

COPY (SELECT 1 WHERE false) TO :'mut_path';
DROP AGGREGATE mut_foreign_agg(anyelement);
DROP AGGREGATE mut_foreign_sized_agg(anyelement, bigint, float8);
DROP AGGREGATE mut_foreign_union(bloom);
DROP AGGREGATE mut_foreign_counting(anyelement);
DROP AGGREGATE mut_foreign_scalable(anyelement, bigint, float8);
DROP TABLE mut_base, mut_results, mut_copy_in, mut_recv, mut_accepted,
	mut_accepted_bin, mut_accepted_txt, mut_par, mut_base2, mut_results2,
	mut_copy_counting, mut_copy_scalable;
DROP FUNCTION mut_rand, mut_pick, mut_chars, mut_bytes, mut_nbytes, mut_set_field,
	mut_get_field, mut_text1, mut_text, mut_be, mut_bin1, mut_bin, mut_check,
	mut_try_text, mut_try_bin, mut_try_recv, mut_nonascii, mut_short,
	mut_check_counting, mut_check_scalable, mut_try_typed_text, mut_try_typed_recv,
	mut_sqlstate;
