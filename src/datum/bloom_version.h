/*-------------------------------------------------------------------------
 *
 * bloom_version.h
 *	  The installed bloomset version and the hashing scheme new filters get
 *	  from it (bloom_version.c).
 *
 *-------------------------------------------------------------------------
 */
#ifndef BLOOMSET_BLOOM_VERSION_H
#define BLOOMSET_BLOOM_VERSION_H

#include "postgres.h"

#include "bloom_kind.h"

/*
 * Installed versions as major * 100 + minor: the first whose new filters
 * get scheme 2 and that has the scheme functions, the first whose new
 * filters and bloomskip indexes get scheme 4 (BLOOM_SCHEME_DEFAULT), the first
 * whose new counting filters may be blocked (counting_bloom.c), the first
 * whose new bloomskip indexes get page format 4 (skip_build.c), and the
 * value for "no version installed" (the library's own behaviour).
 */
#define BLOOM_VERSION_SCHEMES	102
#define BLOOM_VERSION_SCHEME4	105
#define BLOOM_VERSION_COUNTING_BLOCKED	104
#define BLOOM_VERSION_SKIP_FORMAT4	104
#define BLOOM_VERSION_NEWEST	99999
extern int	bloom_installed_version(void);
extern int	bloom_new_scheme(void);
extern int	bloom_scheme_mismatch_hint(const BloomKindOps *kind, int a, int b);
extern void bloom_check_scheme_change(int from, int to, const char *family,
									  uint64 nitems, const char *typname);

#endif							/* BLOOMSET_BLOOM_VERSION_H */
