-- test/upgrade/fingerprints.sql -- one line per stored filter of
-- all_kinds.sql: table, id, name, md5 of the binary send form, md5 of the
-- text form, length.  Bit-identical filters give identical lines.
SELECT 'bloom ' || id || ' ' || name || ' ' ||
       coalesce(md5(bloom_to_bytea(f)) || ' ' || md5(f::text) || ' ' || length(bloom_to_bytea(f)), 'NULL')
  FROM ak_bloom
UNION ALL
SELECT 'counting ' || id || ' ' || name || ' ' ||
       md5(counting_bloom_send(f)) || ' ' || md5(f::text) || ' ' || length(counting_bloom_send(f))
  FROM ak_counting
UNION ALL
SELECT 'scalable ' || id || ' ' || name || ' ' ||
       md5(scalable_bloom_send(f)) || ' ' || md5(f::text) || ' ' || length(scalable_bloom_send(f))
  FROM ak_scalable
ORDER BY 1;
