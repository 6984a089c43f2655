-- test/upgrade/skip_index.sql -- a table with a bloomskip index on a text
-- and a bigint column, built under the installed version; skip_answers.sql
-- reads it.
CREATE TABLE sk (id integer, t text, n bigint);
INSERT INTO sk SELECT g, 'key-' || g, g::bigint * 1000003 FROM generate_series(1, 40000) g;
CREATE INDEX sk_tn ON sk USING bloomskip (t, n) WITH (pages_per_range = 4);
