/*-------------------------------------------------------------------------
 *
 * scalable_format.c
 *	  Validation of scalable_bloom values (see scalable_format.h): every
 *	  sub-filter is checked like a bloom value, must be consistent with the
 *	  outer header, and together they must fill the payload exactly.
 *
 *-------------------------------------------------------------------------
 */
#include "scalable_format.h"

/* Check (capacity, fpr, growth) of a new or decoded filter; NULL if fine. */
const char *
scalable_check_meta(const ScalableMeta *m)
{
	const char *why = bloom_check_sizing_args(m->capacity > (uint64_t) INT64_MAX ?
											  INT64_MAX : (int64_t) m->capacity,
											  m->fpr);

	if (why != NULL)
		return why;
	if (m->growth < SCALABLE_MIN_GROWTH || m->growth > SCALABLE_MAX_GROWTH)
		return "growth factor must be between 2 and 16";
	return NULL;
}

/* Check one sub-filter at offset off of the payload; NULL if fine. */
static const char *
scalable_check_sub(const BloomFilter *f, size_t off)
{
	const BloomFilter *sub = (const BloomFilter *) ((const char *) f->words + off);
	size_t		left = f->nbits / 8 - off;
	const char *why;

	if (left < BLOOM_HEADER_SIZE)
		return "a sub-filter header is truncated";
	if ((why = bloom_check_header(sub)) != NULL)
		return why;
	if ((sub->layout != BLOOM_LAYOUT_CLASSIC && sub->layout != BLOOM_LAYOUT_BLOCKED) ||
		left < BLOOM_TOTAL_SIZE(sub->nbits) ||
		(const char *) scalable_next(sub) - (const char *) sub != (ptrdiff_t) BLOOM_TOTAL_SIZE(sub->nbits))
		return "a sub-filter is inconsistent or truncated";
	if (sub->seed != f->seed || sub->collfp != f->collfp ||
		memcmp(sub->family, f->family, BLOOM_FAMILY_LEN) != 0)
		return "a sub-filter does not match the outer header";
	return bloom_check_bits(sub);
}

/* Check a scalable filter of size bytes in host form; NULL if fine. */
const char *
scalable_check(const BloomFilter *f, size_t size)
{
	size_t		off = sizeof(ScalableMeta);
	const char *why;

	if (size < BLOOM_HEADER_SIZE || f->layout != BLOOM_LAYOUT_SCALABLE ||
		f->version != BLOOM_FORMAT_VERSION || f->scheme != BLOOM_SCHEME_PGEXT)
		return "not a scalable filter";
	if (f->nbits % 64 != 0 || f->nbits > BLOOM_MAX_BITS ||
		size != BLOOM_HEADER_SIZE + f->nbits / 8 ||
		f->nbits / 8 < sizeof(ScalableMeta))
		return "the payload size does not match the header";
	if (f->nhashes < 1 || f->nhashes > SCALABLE_MAX_SUB)
		return "number of sub-filters is out of range (1 .. 32)";
	if ((why = scalable_check_meta(SCALABLE_META(f))) != NULL)
		return why;
	for (int i = 0; i < f->nhashes; i++)
	{
		const BloomFilter *sub = (const BloomFilter *) ((const char *) f->words + off);

		if ((why = scalable_check_sub(f, off)) != NULL)
			return why;
		off += BLOOM_TOTAL_SIZE(sub->nbits);
	}
	return off == f->nbits / 8 ? NULL : "the sub-filters do not fill the payload";
}
