/*-------------------------------------------------------------------------
 *
 * scalable_format.c
 *	  Validation of scalable_bloom values and the conversions between the
 *	  stored formats 1 and 2 (see scalable_format.h).  Every sub-filter is
 *	  checked like a bloom value and must be consistent with the outer
 *	  header; together they must fill the value exactly.
 *
 *-------------------------------------------------------------------------
 */
#include "scalable_format.h"
#include "bloom_header.h"
#include "bloom_sizing.h"

/* Format 1's payload head. */
typedef struct ScalableMetaV1
{
	uint64_t	capacity;
	double		fpr;
	uint64_t	growth;
} ScalableMetaV1;

/* Set the varlena length word of a (4-byte header) image. */
static void
scalable_set_image_size(void *p, size_t size)
{
	uint32_t	len;

#ifdef BLOOM_BIG_ENDIAN
	len = (uint32_t) size & 0x3FFFFFFF;
#else
	len = (uint32_t) size << 2;
#endif
	memcpy(p, &len, sizeof(len));
}

/* Check (capacity, fpr, growth) of a new or decoded filter; NULL if fine. */
const char *
scalable_check_params(uint64_t capacity, double fpr, uint64_t growth)
{
	const char *why;

	if (capacity == 0)
		return "capacity must be a positive number of items";
	why = bloom_check_sizing_args(capacity > (uint64_t) INT64_MAX ? INT64_MAX
								  : (int64_t) capacity, fpr);
	if (why != NULL)
		return why;
	if (growth < SCALABLE_MIN_GROWTH || growth > SCALABLE_MAX_GROWTH)
		return "growth factor must be between 2 and 16";
	return NULL;
}

/*
 * Check the nsub sub-filters in subs[0..len) against the outer seed,
 * collation and family; NULL if they are valid and fill len exactly.
 */
static const char *
scalable_check_subs(const char *subs, size_t len, int nsub, uint64_t seed,
					int scheme, uint32_t collfp, const char *family)
{
	size_t		off = 0;
	const char *why;

	for (int i = 0; i < nsub; i++)
	{
		const BloomFilter *sub = (const BloomFilter *) (subs + off);

		if (len - off < BLOOM_HEADER_SIZE)
			return "a sub-filter header is truncated";
		if ((why = bloom_check_header(sub)) != NULL)
			return why;
		if ((sub->layout != BLOOM_LAYOUT_CLASSIC && sub->layout != BLOOM_LAYOUT_BLOCKED) ||
			len - off < BLOOM_TOTAL_SIZE(sub->nbits) ||
			scalable_image_size(sub) != BLOOM_TOTAL_SIZE(sub->nbits))
			return "a sub-filter is inconsistent or truncated";
		if (sub->seed != seed || sub->scheme != scheme || sub->collfp != collfp ||
			memcmp(sub->family, family, BLOOM_FAMILY_LEN) != 0)
			return "a sub-filter does not match the outer header";
		if ((why = bloom_check_bits(sub)) != NULL)
			return why;
		off += BLOOM_TOTAL_SIZE(sub->nbits);
	}
	return off == len ? NULL : "the sub-filters do not fill the payload";
}

/* Check a format-2 value of size bytes; NULL if fine, else the reason. */
const char *
scalable_check(const ScalableFilter *f, size_t size)
{
	BloomFilter fam;			/* to reuse the family check of the core */
	const char *why;

	if (size < SCALABLE_HEADER_SIZE || f->layout != BLOOM_LAYOUT_SCALABLE ||
		f->version != SCALABLE_FORMAT_VERSION || !bloom_scheme_known(f->scheme))
		return "not a scalable filter";
	if (size - SCALABLE_HEADER_SIZE > BLOOM_MAX_BITS / 8)
		return "the payload size does not match the header";
	if (f->nsub < 1 || f->nsub > SCALABLE_MAX_SUB)
		return "number of sub-filters is out of range (1 .. 32)";
	if (f->flags != 0 || f->reserved != 0)
		return "unknown flags are set";
	if ((why = scalable_check_params(f->capacity, scalable_fpr(f), f->growth)) != NULL)
		return why;
	bloom_init_header(&fam, BLOOM_LAYOUT_BLOCKED, BLOOM_BLOCKED_HASHES, BLOOM_MIN_BITS, 0);
	memcpy(fam.family, f->family, BLOOM_FAMILY_LEN);
	if ((why = bloom_check_header(&fam)) != NULL)
		return why;
	return scalable_check_subs((const char *) f->subs, size - SCALABLE_HEADER_SIZE,
							   f->nsub, f->seed, f->scheme, f->collfp, f->family);
}

/* Check a format-1 (bloomset 1.0) value in host form; NULL if fine. */
const char *
scalable_check_v1(const BloomFilter *f, size_t size)
{
	ScalableMetaV1 m;
	const char *why;

	if (size < BLOOM_HEADER_SIZE || f->layout != BLOOM_LAYOUT_SCALABLE ||
		f->version != BLOOM_FORMAT_VERSION || !bloom_scheme_known(f->scheme))
		return "not a scalable filter";
	if (f->nbits % 64 != 0 || f->nbits > BLOOM_MAX_BITS ||
		size != BLOOM_HEADER_SIZE + f->nbits / 8 ||
		f->nbits / 8 < SCALABLE_V1_META)
		return "the payload size does not match the header";
	if (f->nhashes < 1 || f->nhashes > SCALABLE_MAX_SUB)
		return "number of sub-filters is out of range (1 .. 32)";
	if ((why = bloom_check_header(f)) != NULL)
		return why;
	memcpy(&m, f->words, sizeof(m));
	if ((why = scalable_check_params(m.capacity, m.fpr, m.growth)) != NULL)
		return why;
	return scalable_check_subs((const char *) f->words + SCALABLE_V1_META,
							   f->nbits / 8 - SCALABLE_V1_META, f->nhashes,
							   f->seed, f->scheme, f->collfp, f->family);
}

/*
 * Convert a valid format-1 value to format 2 in out, which has room for
 * its size less 8 bytes.
 */
void
scalable_from_v1(const BloomFilter *v1, ScalableFilter *out)
{
	ScalableMetaV1 m;
	size_t		subs = v1->nbits / 8 - SCALABLE_V1_META;

	memcpy(&m, v1->words, sizeof(m));
	memset(out, 0, SCALABLE_HEADER_SIZE);
	scalable_set_image_size(out, SCALABLE_HEADER_SIZE + subs);
	out->version = SCALABLE_FORMAT_VERSION;
	out->layout = BLOOM_LAYOUT_SCALABLE;
	out->scheme = v1->scheme;
	out->nsub = v1->nhashes;
	out->seed = v1->seed;
	out->capacity = m.capacity;
	memcpy(&out->fpr_bits, &m.fpr, sizeof(double));
	out->growth = (uint32_t) m.growth;
	out->nitems = v1->nitems;
	out->collfp = v1->collfp;
	memcpy(out->family, v1->family, BLOOM_FAMILY_LEN);
	memcpy(out->subs, (const char *) v1->words + SCALABLE_V1_META, subs);
}

/*
 * The format-1 image of f in out (room for its size plus 8 bytes), host
 * byte order: the shape of the text and binary forms.
 */
void
scalable_to_v1(const ScalableFilter *f, BloomFilter *out)
{
	size_t		subs = scalable_image_size(f) - SCALABLE_HEADER_SIZE;
	ScalableMetaV1 m;

	bloom_init_header(out, BLOOM_LAYOUT_SCALABLE, f->nsub,
					  (uint64_t) (SCALABLE_V1_META + subs) * 8, f->seed);
	scalable_set_image_size(out, BLOOM_HEADER_SIZE + SCALABLE_V1_META + subs);
	out->scheme = f->scheme;
	out->nitems = f->nitems;
	out->collfp = f->collfp;
	memcpy(out->family, f->family, BLOOM_FAMILY_LEN);
	m.capacity = f->capacity;
	m.fpr = scalable_fpr(f);
	m.growth = f->growth;
	memcpy(out->words, &m, sizeof(m));
	memcpy((char *) out->words + SCALABLE_V1_META, f->subs, subs);
}
