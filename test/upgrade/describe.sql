-- test/upgrade/describe.sql -- every member object of the extension
-- bloomset with its properties and comment, one line per object, free of
-- OIDs (names and signatures only), sorted.  The objects come from
-- pg_depend (deptype 'e'), so objects added by later scripts are covered
-- without changing this file; operator families and classes list their
-- operators and support functions, types their array type.  Two databases
-- whose extension has the same objects give the same output.
WITH ext AS (SELECT oid FROM pg_extension WHERE extname = 'bloomset'),
members AS (
  SELECT d.classid, d.objid, d.objsubid
    FROM pg_depend d, ext
   WHERE d.refclassid = 'pg_extension'::regclass AND d.refobjid = ext.oid AND d.deptype = 'e'),
described AS (
  SELECT m.classid, m.objid,
         (pg_identify_object(m.classid, m.objid, m.objsubid)).type AS otype,
         (pg_identify_object(m.classid, m.objid, m.objsubid)).identity AS ident
    FROM members m),
props AS (
  -- functions, procedures, aggregates
  SELECT d.classid, d.objid, concat_ws(' ',
           'kind=' || p.prokind::text, 'returns=' || pg_get_function_result(p.oid),
           'args=(' || pg_get_function_arguments(p.oid) || ')',
           'volatile=' || p.provolatile::text, 'parallel=' || p.proparallel::text,
           'strict=' || p.proisstrict, 'leakproof=' || p.proleakproof,
           'secdef=' || p.prosecdef, 'cost=' || p.procost, 'rows=' || p.prorows,
           'retset=' || p.proretset, 'lang=' || l.lanname,
           'support=' || p.prosupport::regprocedure,
           'src=' || p.prosrc, 'bin=' || coalesce(p.probin, '-'),
           'config=' || coalesce(p.proconfig::text, '-'),
           'acl=' || coalesce(p.proacl::text, '-'),
           CASE WHEN p.prokind::text = 'a' THEN concat_ws(' ',
             'aggkind=' || a.aggkind::text, 'direct=' || a.aggnumdirectargs,
             'sfunc=' || a.aggtransfn::regprocedure, 'stype=' || format_type(a.aggtranstype, NULL),
             'sspace=' || a.aggtransspace,
             'finalfunc=' || a.aggfinalfn::regprocedure, 'finalextra=' || a.aggfinalextra,
             'finalmodify=' || a.aggfinalmodify::text,
             'combinefunc=' || a.aggcombinefn::regprocedure,
             'serialfunc=' || a.aggserialfn::regprocedure,
             'deserialfunc=' || a.aggdeserialfn::regprocedure,
             'msfunc=' || a.aggmtransfn::regprocedure, 'minvfunc=' || a.aggminvtransfn::regprocedure,
             'mfinalfunc=' || a.aggmfinalfn::regprocedure, 'mfinalextra=' || a.aggmfinalextra,
             'mfinalmodify=' || a.aggmfinalmodify::text,
             'mstype=' || format_type(a.aggmtranstype, NULL), 'msspace=' || a.aggmtransspace,
             'initcond=' || coalesce(a.agginitval, '-'), 'minitcond=' || coalesce(a.aggminitval, '-'),
             'sortop=' || a.aggsortop::regoperator) END) AS p
    FROM described d
    JOIN pg_proc p ON d.classid = 'pg_proc'::regclass AND p.oid = d.objid
    JOIN pg_language l ON l.oid = p.prolang
    LEFT JOIN pg_aggregate a ON a.aggfnoid = p.oid
  UNION ALL
  -- types (base, composite, domain, enum ...) and their array types
  SELECT d.classid, d.objid, concat_ws(' ',
           'typtype=' || t.typtype::text, 'len=' || t.typlen, 'byval=' || t.typbyval,
           'category=' || t.typcategory::text, 'preferred=' || t.typispreferred,
           'delim=' || t.typdelim::text, 'input=' || t.typinput::regprocedure,
           'output=' || t.typoutput::regprocedure, 'receive=' || t.typreceive::regprocedure,
           'send=' || t.typsend::regprocedure, 'typmodin=' || t.typmodin::regprocedure,
           'typmodout=' || t.typmodout::regprocedure, 'analyze=' || t.typanalyze::regprocedure,
           'subscript=' || t.typsubscript::regprocedure,
           'align=' || t.typalign::text, 'storage=' || t.typstorage::text, 'notnull=' || t.typnotnull,
           'basetype=' || format_type(t.typbasetype, NULL), 'elem=' || format_type(t.typelem, NULL),
           'array=' || format_type(t.typarray, NULL), 'collation=' || t.typcollation::regcollation,
           'default=' || coalesce(t.typdefault, '-'), 'acl=' || coalesce(t.typacl::text, '-'),
           'relation=' || coalesce((SELECT string_agg(attname || ':' || format_type(atttypid, atttypmod), ',' ORDER BY attnum)
                                      FROM pg_attribute WHERE attrelid = t.typrelid AND attnum > 0 AND NOT attisdropped), '-'),
           'labels=' || coalesce((SELECT string_agg(enumlabel, ',' ORDER BY enumsortorder) FROM pg_enum WHERE enumtypid = t.oid), '-'))
    FROM described d JOIN pg_type t ON d.classid = 'pg_type'::regclass AND t.oid = d.objid
  UNION ALL
  SELECT d.classid, d.objid, concat_ws(' ',
           'kind=' || o.oprkind::text, 'result=' || format_type(o.oprresult, NULL),
           'function=' || o.oprcode::regprocedure, 'commutator=' || o.oprcom::regoperator,
           'negator=' || o.oprnegate::regoperator, 'restrict=' || o.oprrest::regprocedure,
           'join=' || o.oprjoin::regprocedure, 'merges=' || o.oprcanmerge, 'hashes=' || o.oprcanhash)
    FROM described d JOIN pg_operator o ON d.classid = 'pg_operator'::regclass AND o.oid = d.objid
  UNION ALL
  SELECT d.classid, d.objid, concat_ws(' ',
           'method=' || am.amname, 'family=' || f.opfname, 'intype=' || format_type(c.opcintype, NULL),
           'default=' || c.opcdefault, 'keytype=' || format_type(c.opckeytype, NULL))
    FROM described d JOIN pg_opclass c ON d.classid = 'pg_opclass'::regclass AND c.oid = d.objid
    JOIN pg_am am ON am.oid = c.opcmethod JOIN pg_opfamily f ON f.oid = c.opcfamily
  UNION ALL
  SELECT d.classid, d.objid, concat_ws(' ', 'method=' || am.amname,
           'operators=' || coalesce((SELECT string_agg(ao.amopstrategy || ':' || ao.amopopr::regoperator || ':' ||
                                     format_type(ao.amoplefttype, NULL) || ',' || format_type(ao.amoprighttype, NULL) ||
                                     ':' || ao.amoppurpose::text || ':' || coalesce(sf.opfname, '-'),
                                     ' ' ORDER BY ao.amopstrategy, ao.amoplefttype::regtype::text, ao.amoprighttype::regtype::text)
                                       FROM pg_amop ao LEFT JOIN pg_opfamily sf ON sf.oid = ao.amopsortfamily
                                      WHERE ao.amopfamily = f.oid), '-'),
           'functions=' || coalesce((SELECT string_agg(ap.amprocnum || ':' || ap.amproc::regprocedure || ':' ||
                                     format_type(ap.amproclefttype, NULL) || ',' || format_type(ap.amprocrighttype, NULL),
                                     ' ' ORDER BY ap.amprocnum, ap.amproclefttype::regtype::text, ap.amprocrighttype::regtype::text)
                                       FROM pg_amproc ap WHERE ap.amprocfamily = f.oid), '-'))
    FROM described d JOIN pg_opfamily f ON d.classid = 'pg_opfamily'::regclass AND f.oid = d.objid
    JOIN pg_am am ON am.oid = f.opfmethod
  UNION ALL
  SELECT d.classid, d.objid, concat_ws(' ',
           'source=' || format_type(c.castsource, NULL), 'target=' || format_type(c.casttarget, NULL),
           'function=' || c.castfunc::regprocedure, 'context=' || c.castcontext::text, 'method=' || c.castmethod::text)
    FROM described d JOIN pg_cast c ON d.classid = 'pg_cast'::regclass AND c.oid = d.objid
  UNION ALL
  -- tables, views, sequences (none today): their definition, column by column
  SELECT d.classid, d.objid, concat_ws(' ', 'relkind=' || r.relkind::text,
           'columns=' || coalesce((SELECT string_agg(attname || ':' || format_type(atttypid, atttypmod), ',' ORDER BY attnum)
                                      FROM pg_attribute WHERE attrelid = r.oid AND attnum > 0 AND NOT attisdropped), '-'),
           'view=' || coalesce(pg_get_viewdef(r.oid), '-'), 'acl=' || coalesce(r.relacl::text, '-'))
    FROM described d JOIN pg_class r ON d.classid = 'pg_class'::regclass AND r.oid = d.objid)
SELECT d.otype || ' | ' || d.ident || ' | ' ||
       coalesce(p.p, 'props=(' || d.classid::regclass || ')') || ' | comment=' ||
       coalesce(quote_literal(obj_description(d.objid, d.classid::regclass::name)), '-')
  FROM described d LEFT JOIN props p ON p.classid = d.classid AND p.objid = d.objid
UNION ALL
SELECT 'extension | bloomset | version=' || extversion || ' relocatable=' || extrelocatable ||
       ' schema=' || extnamespace::regnamespace || ' config=' || coalesce(extconfig::regclass[]::text, '-') ||
       ' | comment=' || coalesce(quote_literal(obj_description(oid, 'pg_extension')), '-')
  FROM pg_extension WHERE extname = 'bloomset'
ORDER BY 1;
