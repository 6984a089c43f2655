/*-------------------------------------------------------------------------
 *
 * bloom.h
 *	  PostgreSQL-side declarations shared by the bloomset C files: the
 *	  value-to-hash layer, the datum layer (bloom_datum.c) and the aggregate
 *	  engine (bloom_agg.c) with the hooks each kind gives it.  The stored
 *	  format is in bloom_format.h.
 *
 * Who calls whom (no cycles): bloom_batch.c calls bloom.c (the bloom
 * type), counting_bloom.c and scalable_bloom.c (the batch calls of every
 * kind); bloom_text.c, counting_bloom.c and scalable_bloom.c call
 * bloom_agg.c (the aggregate engine), which calls bloom.c and
 * bloom_parquet.c and reaches the other kinds only through the hooks they
 * hand it (BloomAggKind), never by name; bloom.c,
 * counting_bloom.c and scalable_bloom.c call bloom_datum.c and, to read
 * the filters they probe, bloom_cache.c (the per-call-site cache and sliced
 * reads), which calls bloom_datum.c and bloom_hash.c; bloom_scan.c (the
 * batched probe) calls bloom.c's probe and bloom_cache.c; bloomset.c (module
 * load) calls bloom_scan.c and sets bloom.c's statement id and settings;
 * every file may call the PostgreSQL-free core
 * (bloom_format.h, scalable_format.h).
 *
 *-------------------------------------------------------------------------
 */
#ifndef BLOOMSET_BLOOM_H
#define BLOOMSET_BLOOM_H

#include "postgres.h"
#include "fmgr.h"
#if PG_VERSION_NUM >= 160000
#include "varatt.h"			/* split out of postgres.h in 16 */
#endif
#include "access/detoast.h"
#include "common/hashfn.h"
#include "lib/stringinfo.h"

#include "bloom_format.h"

StaticAssertDecl(BLOOM_HEADER_SIZE == 72, "bloom header must be 72 bytes");

/*
 * Value-to-hash information for one element type and collation, computed
 * once per call site (fn_extra) or per aggregate state.
 */
typedef enum BloomHashKind
{
	BLOOM_HASH_GENERIC,			/* call the type's extended hash function */
	BLOOM_HASH_INT2,			/* inlined equivalents, bit-identical */
	BLOOM_HASH_INT4,
	BLOOM_HASH_INT8,
	BLOOM_HASH_BYTES,			/* text/varchar (deterministic), bytea */
	BLOOM_HASH_ENUM				/* hash the label, not the OID */
} BloomHashKind;

/*
 * How scheme 2 hashes the type (bloom_hash.c): as scheme 1 does, or by one
 * of its own functions where PostgreSQL's extended hash drops information
 * that the type's equality keeps.
 */
typedef enum BloomHash2Kind
{
	BLOOM_HASH2_AS_SCHEME1,		/* scheme 1's element hash */
	BLOOM_HASH2_INT16,			/* the value widened to 64 bits, SplitMix64 */
	BLOOM_HASH2_INT32,
	BLOOM_HASH2_INT64,			/* int8, xid8, timestamp(tz), time, pg_lsn */
	BLOOM_HASH2_NUMERIC,		/* extended hash plus the sign */
	BLOOM_HASH2_INTERVAL,		/* the 128-bit span equality compares */
	BLOOM_HASH2_TIMETZ,			/* 64-bit time and zone */
	BLOOM_HASH2_JSONB,			/* structure and signed numbers */
	BLOOM_HASH2_ACLITEM,		/* the three fields, not their sum */
	BLOOM_HASH2_ARRAY,			/* dimensions and elements' scheme-2 hashes */
	BLOOM_HASH2_RANGE,			/* flags and bounds' scheme-2 hashes */
	BLOOM_HASH2_RECORD,			/* columns' scheme-2 hashes */
	BLOOM_HASH2_MULTIRANGE		/* its ranges' scheme-2 hashes */
} BloomHash2Kind;

typedef struct BloomTypeInfo
{
	Oid			typid;			/* the argument type as given */
	Oid			collation;		/* input collation */
	BloomHashKind kind;
	BloomHash2Kind kind2;		/* scheme 2 */
	uint32		collfp;			/* nondeterministic collation fingerprint */
	char		family[BLOOM_FAMILY_LEN];
	/* the Parquet scheme: the base type and its "parquet:" family, if any */
	Oid			pq_type;
	char		pq_family[BLOOM_FAMILY_LEN];
	FmgrInfo	hashfn;			/* extended hash (GENERIC kind) */
	/* scheme 2 containers (in the call site's memory context) */
	struct BloomTypeInfo *sub;	/* array element, range subtype, columns,
								 * a multirange's range type */
	int			nsub;			/* columns of a composite (incl. dropped) */
	int16		elmlen;			/* array elements */
	bool		elmbyval;
	char		elmalign;
} BloomTypeInfo;

/*
 * The extended hash of the bytes of a text (deterministic collation) or
 * bytea value, before scheme 1's fmix64: hash_bytes_extended(), inlined.
 */
static inline uint64
bloom_bytes_hash(const char *p, size_t len, uint64 seed)
{
#ifdef WORDS_BIGENDIAN
	return hash_bytes_extended((const unsigned char *) p, (int) len, seed);
#else
	return bloom_lookup3_bytes((const uint8_t *) p, (uint32_t) len, seed);
#endif
}

/* bloom_hash.c: values to element hashes */
extern void bloom_typeinfo_init(BloomTypeInfo *ti, Oid typid, Oid collation,
								MemoryContext mcxt);

/*
 * The family values described by ti have in a filter whose element family
 * is family: a Parquet filter's element family names the concrete type
 * ("parquet:int8"), every other one the hash operator family.
 */
static inline const char *
bloom_ti_family(const BloomTypeInfo *ti, const char *family)
{
	return strncmp(family, BLOOM_FAMILY_PARQUET, sizeof(BLOOM_FAMILY_PARQUET) - 1) == 0 ?
		ti->pq_family : ti->family;
}

/* bloom_hash.c: the Parquet scheme's value-to-hash part */
extern bool bloom_parquet_family_of(Oid base, char *family);
extern Oid	bloom_parquet_family_type(const char *family);
#if PG_VERSION_NUM >= 180000
extern pg_noreturn void bloom_parquet_type_error(Oid typid);
#else
extern void bloom_parquet_type_error(Oid typid) pg_attribute_noreturn();
#endif
extern uint64 bloom_parquet_hash_datum(Oid typid, Datum value);
extern uint64 bloom_parquet_hash_float4(float4 f);
extern uint64 bloom_parquet_hash_float8(float8 f);

/* bloom_parquet.c: Parquet filters in and out */
extern void bloom_parquet_sized_header(BloomFilter *hdr, int64 capacity,
									   double fpr, Oid typid, Oid collation);
extern uint64 bloom_hash_datum(const BloomTypeInfo *ti, Datum value,
							   uint64 seed, int scheme);
extern uint64 bloom_hash_bytes(const char *p, size_t len, uint64 seed);

/*
 * Installed versions as major * 100 + minor: the first whose new filters
 * get BLOOM_SCHEME_DEFAULT and that has the scheme functions, and the
 * value for "no version installed" (the library's own behaviour).
 */
#define BLOOM_VERSION_SCHEMES	102
#define BLOOM_VERSION_NEWEST	99999
extern int	bloom_installed_version(void);
extern int	bloom_new_scheme(void);
extern int	bloom_scheme_mismatch_hint(const char *typname, int a, int b);
extern void bloom_check_scheme_change(int from, int to, const char *family,
									  uint64 nitems, const char *typname);
extern void bloom_check_element_fields(char *family, uint32 *collfp,
									   const BloomTypeInfo *ti, bool adopt);
extern void bloom_check_element(BloomFilter *f, const BloomTypeInfo *ti,
								bool adopt);
extern bool bloom_fast_hash_enabled;
extern char *bloom_collation_name(uint32 fp);
extern void bloom_merge_element_fields(char *dst_family, uint32 *dst_collfp,
									   const char *family, uint32 collfp,
									   const char *aggname);

/*
 * A value given to a filter of another element type, converted to the
 * filter's own type (by its implicit cast, or by the input function from a
 * string) and hashed with that type's information ti.  A char(n) value
 * converted through its text drops its trailing spaces, as PostgreSQL's
 * cast of char(n) to text does -- for filters of scheme 2 and later; scheme
 * 1 (filters of 1.0 and 1.1) keeps the padded text those versions
 * converted, so their answers do not change.
 */
typedef enum BloomConvertHow
{
	BLOOM_CONVERT_RELABEL,		/* binary compatible: as it is */
	BLOOM_CONVERT_CAST,			/* the implicit cast function */
	BLOOM_CONVERT_INPUT			/* text out of the value, input of the type */
} BloomConvertHow;

typedef struct BloomConversion
{
	Oid			from;
	Oid			to;
	BloomConvertHow how;
	int			nargs;			/* of the cast function */
	FmgrInfo	fn;				/* cast or input function */
	Oid			ioparam;
	FmgrInfo	outfn;			/* output function of from (INPUT) */
	bool		from_varlena;
	bool		trim_asked;		/* for a filter whose scheme trims char(n) */
	bool		trim_bpchar;	/* INPUT from char(n): trailing spaces dropped */
	BloomTypeInfo ti;			/* of to */
} BloomConversion;

extern Oid	bloom_family_type(const char *family);
extern bool bloom_conversion_init(BloomConversion *cv, Oid from, Oid to,
								  Oid collation, int scheme, MemoryContext mcxt);
extern Datum bloom_convert(BloomConversion *cv, Datum value);

/*
 * bloom_datum.c: the one owner of filter datums -- allocation, copies,
 * validation of stored and incoming values, the text and binary entry
 * points and the reason-string errors.
 */

/* the SQL types sharing the stored header */
typedef enum BloomKind
{
	BLOOM_KIND_PLAIN,			/* bloom: classic or blocked */
	BLOOM_KIND_COUNTING,		/* counting_bloom */
	BLOOM_KIND_SCALABLE			/* scalable_bloom */
} BloomKind;

#if PG_VERSION_NUM >= 180000
extern pg_noreturn void bloom_raise(int sqlerrcode, const char *message,
									const char *why);
#else
extern void bloom_raise(int sqlerrcode, const char *message, const char *why)
			pg_attribute_noreturn();
#endif
extern void *bloom_alloc_bytes(MemoryContext cxt, size_t size);
extern BloomFilter *bloom_alloc_in(MemoryContext cxt, uint64 nbits);
extern BloomFilter *bloom_alloc(int layout, int nhashes, uint64 nbits,
								uint64 seed);
extern BloomFilter *bloom_alloc_like(MemoryContext cxt, const BloomFilter *f,
									 uint64 nbits);
extern BloomFilter *bloom_copy_in(MemoryContext cxt, const BloomFilter *f);
extern BloomFilter *bloom_copy(const BloomFilter *f);
extern void *bloom_from_datum_kind(Datum d, BloomKind kind);
extern void bloom_check_stored_size(const BloomFilter *f, Size size,
									BloomKind kind);
extern BloomFilter *bloom_from_datum_any(Datum d);
extern const char *bloom_kind_reason(const void *f, size_t size,
									 BloomKind kind);
extern BloomFilter *bloom_parse_text(const char *str, BloomKind kind);
extern BloomFilter *bloom_parse_wire(const uint8 *p, size_t len,
									 MemoryContext cxt, BloomKind kind,
									 const char *message);
extern BloomFilter *bloom_parse_recv(StringInfo buf, BloomKind kind,
									 const char *message);
extern void bloom_wire_append(StringInfo buf, const BloomFilter *f);
extern bytea *bloom_wire_bytea(const BloomFilter *f);

/* Count n more items added (saturating). */
static inline void
bloom_add_items(BloomFilter *f, uint64 n)
{
	f->nitems = (f->nitems > PG_UINT64_MAX - n) ? PG_UINT64_MAX : f->nitems + n;
}

/*
 * bloom_cache.c: the per-call-site cache (fn_extra) and how probes read
 * stored filters.  A probe gets its filter from bloom_call_probe or
 * bloom_call_probe_filter -- possibly a sliced image holding only the
 * header of a value stored out of line -- hashes its keys with the header's
 * seed, and passes the hashes to bloom_call_parts, which returns the filter
 * to test them against (the image with their parts read).
 */
extern int	bloom_probe_cache_kb;
extern bool bloom_sliced_reads;
extern BloomTypeInfo *bloom_call_typeinfo(FunctionCallInfo fcinfo, int argno);
extern BloomTypeInfo *bloom_call_elem_typeinfo(FunctionCallInfo fcinfo,
											   Oid elemtype);
extern void *bloom_call_filter(FunctionCallInfo fcinfo, int argno,
							   BloomKind kind);
extern void *bloom_call_probe_filter(FunctionCallInfo fcinfo, int argno,
									 BloomKind kind);
extern void *bloom_call_probe(FunctionCallInfo fcinfo, BloomKind kind,
							  BloomTypeInfo **ti, Datum *value);
extern void *bloom_call_parts(FunctionCallInfo fcinfo, void *f,
							  const uint64 *h, int n);
extern BloomTypeInfo *bloom_call_value(FunctionCallInfo fcinfo, int argno,
									   char *family, uint32 *collfp,
									   int scheme, Datum *value);
extern BloomConversion *bloom_call_elements(FunctionCallInfo fcinfo, Oid elemtype,
											char *family, uint32 *collfp,
											int scheme, bool adopt,
											BloomTypeInfo **ti);

extern bool bloom_call_stable(FunctionCallInfo fcinfo, const void *f);

extern MemoryContext bloom_agg_context(FunctionCallInfo fcinfo);

/* bloom.c: the bloom type (sizing, set operations); bloom_agg.c: aggregates */
extern BloomFilter *bloom_contains_hash(FunctionCallInfo fcinfo, uint64 *h);
extern PGDLLEXPORT Datum bloom_contains(PG_FUNCTION_ARGS);
extern BloomFilter *bloom_combine(const BloomFilter *a, const BloomFilter *b,
								  bool is_union);
extern uint32 bloom_result_flags(const BloomFilter *a, const BloomFilter *b);
extern BloomFilter *bloom_folded(const BloomFilter *f, uint64 factor);
extern BloomSizing bloom_sizing_checked(int64 capacity, double fpr, int layout,
									   bool pow2);
extern void bloom_sized_header(BloomFilter *hdr, int64 capacity, double fpr,
							   bool pow2);
extern void bloom_explicit_header(BloomFilter *hdr, int32 size_bytes,
								  int32 nhashes, int64 seed);

/*
 * The aggregate engine (bloom_agg.c): one state design for the value
 * aggregates of every kind (bloom_agg and its n-gram, token and Parquet
 * forms, counting_bloom_agg, scalable_bloom_agg) and one machinery for the
 * set-operation aggregates.  A kind gives its hooks here; its SQL entry
 * points are thin wrappers over the bloom_agg_* and bloom_setop_* functions.
 *
 * A value-aggregate state is in one of two phases: a filter of the kind
 * being filled (through the prefetch queue), or an exact set of the
 * distinct element hashes under a header of the kind (the parameters and
 * element fields) -- automatic sizing, and scalable_bloom_agg's partial
 * states -- which turns into a filter (from_exact) at the end, or past
 * exact_max distinct hashes.
 */
typedef struct BloomAggFields
{
	char	   *family;			/* where the kind keeps them in a filter or */
	uint32	   *collfp;			/* an exact-phase header */
	uint64		seed;
	int			scheme;
} BloomAggFields;

typedef struct BloomAggKind
{
	/* the type: shared by its value and set-operation aggregates */
	BloomKind	type;			/* validates serialized filters */
	const char *state_msg;		/* error message of a bad serialized state */
	void	   *(*empty) (void);	/* the result over no rows */
	void		(*check_full) (const void *f, FunctionCallInfo fcinfo);
	BloomFilter *(*portable) (void *f); /* the wire image, if not f itself */
	void	   *(*decode) (BloomFilter *wire, MemoryContext aggcxt);	/* or NULL */

	/* the value aggregate */
	const char *name;			/* for messages */
	char		tag;			/* first byte of a serialized state */
	uint32		exact_max;		/* distinct hashes the exact phase keeps */
	uint32		list_max;		/* hashes the list phase keeps; 0: no list */
	bool		counted;		/* the exact phase keeps multiplicities */
	bool		items_are_rows; /* the result counts the non-null rows */
	Size		hdr_size;		/* of an exact-phase header */
	const char *(*check_hdr) (const void *hdr); /* why it is invalid, or NULL */
	BloomAggFields (*fields) (void *f);	/* of a filter or header */
	void		(*adopted) (void *f);	/* its element fields were set; or NULL */
	void		(*prefetch) (const void *f, uint64 h);	/* or NULL */
	void		(*insert) (void **f, const uint64 *h, int n, MemoryContext cxt);
	/* an empty filter for the exact set: the result (final) or an overflow */
	void	   *(*from_exact) (const void *hdr, uint64 ndistinct, MemoryContext cxt,
							   bool final);
	void		(*merge) (void **dst, const void *src, MemoryContext cxt);
	void	   *(*result) (const void *f);	/* final of a filter; NULL: a copy */
} BloomAggKind;

/* A new state's filter, or its exact-phase header (*exact), in aggcxt. */
typedef void *(*BloomAggMake) (FunctionCallInfo fcinfo, MemoryContext aggcxt,
							   bool *exact);

typedef struct BloomAggState BloomAggState;

extern Datum bloom_agg_apply(FunctionCallInfo fcinfo, const BloomAggKind *k,
							 BloomAggMake make, const char *aggname);
extern Datum bloom_agg_finish(FunctionCallInfo fcinfo, const BloomAggKind *k);
extern Datum bloom_agg_merge_states(FunctionCallInfo fcinfo);
extern Datum bloom_agg_serialize(FunctionCallInfo fcinfo);
extern Datum bloom_agg_deserialize(FunctionCallInfo fcinfo, const BloomAggKind *k);
extern bool bloom_agg_is_partial(FunctionCallInfo fcinfo);
extern void bloom_agg_args_given(FunctionCallInfo fcinfo, int n,
								 const char *aggname, const char *what);
extern void *bloom_agg_auto_header(FunctionCallInfo fcinfo, MemoryContext aggcxt,
								   bool *exact);
extern BloomAggFields bloom_agg_filter_fields(void *f);
extern const char *bloom_agg_check_filter_hdr(const void *hdr);
extern BloomAggState *bloom_agg_auto_state(FunctionCallInfo fcinfo,
										   const char *family);
extern void bloom_agg_push(BloomAggState *st, uint64 h, bool count_item);
extern const char *bloom_agg_family(BloomAggState *st);
extern BloomFilter *bloom_empty_result(void);

/*
 * A set-operation aggregate (union or intersection) of one kind: the step
 * that merges an input or a state into the state; the rest is the kind's.
 */
typedef struct BloomSetopAgg
{
	const BloomAggKind *kind;
	void	   *(*step) (MemoryContext aggcxt, void *state, const void *in);
	bool		empty_is_null;	/* over no rows: NULL, not the kind's empty */
} BloomSetopAgg;

extern Datum bloom_setop_apply(FunctionCallInfo fcinfo, const BloomSetopAgg *k,
							   bool combine);
extern Datum bloom_setop_finish(FunctionCallInfo fcinfo, const BloomSetopAgg *k);
extern Datum bloom_setop_serialize(FunctionCallInfo fcinfo, const BloomSetopAgg *k);
extern Datum bloom_setop_deserialize(FunctionCallInfo fcinfo, const BloomSetopAgg *k);

/*
 * bloomset.full_filter (bloomset.c): what bloom_check_full does when a
 * filter a call returns is estimated at more than twice its target rate.
 */
typedef enum BloomFullAction
{
	BLOOM_FULL_OFF,
	BLOOM_FULL_WARNING,
	BLOOM_FULL_ERROR
} BloomFullAction;
extern int	bloom_full_filter_action;
extern uint64 bloom_statement_id;
extern bool bloom_full_check_wanted(void);
extern void bloom_full_report(FunctionCallInfo fcinfo, const char *what_kind,
							  double rate, double target, const char *detail);
extern void bloom_check_full(const BloomFilter *f, FunctionCallInfo fcinfo);

/* counting_bloom.c, scalable_bloom.c: the full-filter checks of their kinds */
extern void counting_check_full(const BloomFilter *c, FunctionCallInfo fcinfo);
struct ScalableFilter;
extern void scalable_check_full(const struct ScalableFilter *f,
								FunctionCallInfo fcinfo);
extern void scalable_add_hashes(struct ScalableFilter **pf, const uint64 *h, int n);
extern bool scalable_test_hash(const struct ScalableFilter *f, uint64 h);

/* bloom_scan.c: the batched probe (a custom scan), set up by _PG_init */
extern bool bloom_batched_probe;
extern void bloom_scan_init(void);

#define PG_GETARG_BLOOM_P(n)	bloom_from_datum_kind(PG_GETARG_DATUM(n), BLOOM_KIND_PLAIN)
#define PG_RETURN_BLOOM_P(x)	PG_RETURN_POINTER(x)

#endif							/* BLOOMSET_BLOOM_H */
