/*-------------------------------------------------------------------------
 *
 * bloom_core.h
 *	  The whole interface of the PostgreSQL-free core, for the code outside
 *	  src/core: it only includes the core's headers.  Each file of the core
 *	  has a header of its own beside it, and the stored format, which no
 *	  one file owns, has bloom_format.h:
 *
 *	   bloom_format.h     the stored format: the header struct, layouts,
 *	                      schemes, flags, limits, byte order, block of a hash
 *	   bloom_sizing.h     sizing for a capacity and a rate, model rates
 *	   bloom_header.h     the header: initialisation, names, validators
 *	   bloom_positions.h  hash to bits: mixers, probe positions, the insert
 *	                      and test of a hash with their AVX2 block kernels
 *	   bloom_counting.h   the counting layout's 4-bit counters
 *	   bloom_algebra.h    which filters combine; folding and unfolding
 *	   bloom_kernels.h    word kernels with run-time CPU dispatch, popcount,
 *	                      chunked byte loops, the interrupt hook
 *	   bloom_estimate.h   distinct items, pair cardinalities, rates
 *	   bloom_slices.h     bit-sliced columns: filters transposed into rows,
 *	                      runs of bits moved between rows
 *
 *	  bloom_core.c holds the core's design and nothing else.  The files of
 *	  the core include only the headers they use, never this one, so that
 *	  each is a module of its own and the modules' graph has no circle.
 *	  What the core's files share and nobody else calls is in
 *	  bloom_internal.h.  The text/binary codecs (bloom_codec.h), the
 *	  scalable and Parquet formats are modules of their own, not included
 *	  here.
 *
 * No core header may include a PostgreSQL header: the core is also
 * compiled into the C unit test, the microbenchmark and the fuzz targets.
 *
 *-------------------------------------------------------------------------
 */
#ifndef BLOOM_CORE_H
#define BLOOM_CORE_H

#include "bloom_format.h"
#include "bloom_sizing.h"
#include "bloom_header.h"
#include "bloom_positions.h"
#include "bloom_counting.h"
#include "bloom_algebra.h"
#include "bloom_kernels.h"
#include "bloom_estimate.h"
#include "bloom_slices.h"

#endif							/* BLOOM_CORE_H */
