/*-------------------------------------------------------------------------
 *
 * bloom_core.c
 *	  PostgreSQL-free core of bloomset: sizing, hash-to-bit mapping for the
 *	  classic and the blocked layout, set algebra with folding, estimates
 *	  and header validation (the text/binary codecs are in bloom_codec.c).
 *
 * Design.  Every value is reduced to one 64-bit hash (bloom_hash.c); all
 * positions are derived from it here, so a filter never depends on how the
 * value was stored in memory.
 *
 * Blocked layout (split block Bloom filter, as in Parquet): the array is z
 * blocks of 256 bits; the upper 32 bits of the hash choose the block by
 * multiply-shift, ((h >> 32) * z) >> 32, and the lower 32 bits set one bit in
 * each of the block's eight 32-bit words, (h32 * SALT[i]) >> 27.  One cache
 * line per operation.
 *
 * Classic layout: k positions g_0 .. g_{k-1} from the hash, each reduced to
 * [0, m) by multiply-shift (the high 64 bits of g * m).  Scheme 1 (1.0,
 * 1.1): double hashing, a += b, b += i, from a = h and a b made from h; the
 * b += i tweak changes only low bits, which the reduction drops, so the
 * positions are an arithmetic progression modulo m, and in a small filter
 * a progression often repeats itself (capacity 10 at 1e-5: 18 probes on
 * <= 5 distinct bits for 0.45 % of the keys, 93x the promised rate).
 * Scheme 2: g_i = remix(a + i * b), a = h, b = mix64b(h) | 1, remix one
 * xorshift and multiply (bloom_probe_remix) -- double hashing on two 64-bit
 * hashes, made non-linear per probe, so the positions behave as
 * independent (unit test: the rate oracle down to 1e-8 and the distinct
 * positions per key).  Either way g_i does not depend on m, which is what
 * folding needs (below).  The counting layout uses the same positions over
 * its counters.
 *
 * Multiply-shift instead of modulo is what makes folding possible: for any
 * factor f dividing the number of blocks (or bits), position p in the large
 * filter maps to p / f in the folded one, so OR-ing each run of f adjacent
 * blocks (bits) gives exactly the filter built directly at the smaller size.
 * Replicating each block f times ("unfolding") gives a valid superset filter
 * at the larger size; union and intersection use it to combine filters whose
 * sizes are multiples of each other.
 *
 * Unreachable rates.  The classic layout uses at most BLOOM_MAX_HASHES
 * hashes and the blocked one exactly 8, so below some rate a filter must
 * grow far beyond the ideal -n ln p / (ln 2)^2 bits (classic, 1e6 items at
 * 1e-300: 180 MB would give 9e-54, not 1e-300).  bloom_size_for sizes the
 * classic layout for its capped k when the cap binds, and reports a rate
 * that no filter of the layout within BLOOM_MAX_BITS reaches, although the
 * ideal filter would fit, as unreachable, with the smallest reachable rate.
 *
 * Interrupts.  Every loop over the bit array is cut into chunks of about
 * BLOOM_POLL_BYTES by bloom_chunk_end (bloom_kernels.h), which calls
 * bloom_interrupt_hook between chunks: the word kernels (whatever the CPU
 * path) through bloom_words_chunked, the others in their own outer loop.
 *
 * Files.  This file holds the design only.  Each of the others has a
 * header of its own, the stored format is in bloom_format.h, and
 * bloom_core.h includes them all for the code outside the core.  The hook
 * is defined with the word kernels, not here: every long loop polls it,
 * and a definition in this file would tie every module of the core to
 * the one that includes all of them.
 *
 *-------------------------------------------------------------------------
 */
#include "bloom_core.h"
