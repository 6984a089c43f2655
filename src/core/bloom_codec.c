/*-------------------------------------------------------------------------
 *
 * bloom_codec.c
 *	  The text and the binary (send/recv, bytea) forms of a bloomset filter,
 *	  PostgreSQL-free: encoders, and decoders that validate every header
 *	  field through bloom_check_header before anything is allocated.
 *
 * Text form: one line, the header as key=value fields in a fixed order,
 * then the bit array as lower-case hex (upper case accepted on input), two
 * digits per byte in byte order.  It is twice the size of the array, so the
 * encode and decode loops poll for interrupts (bloom_chunk_end).  Decoding
 * looks digits up in a 256-entry table, several times faster than a chain
 * of range tests (bench/micro.c measures it).
 *
 * Binary form: the header fields in network byte order
 * (BLOOM_WIRE_HEADER_SIZE bytes), then the bit array bytes unchanged (its
 * byte order is the same on every host; see bloom_format.h).  The decoders
 * take the whole value's length and insist that it matches the header
 * exactly.
 *
 *-------------------------------------------------------------------------
 */
#include "bloom_codec.h"
#include "bloom_header.h"
#include "bloom_kernels.h"

#include <stdio.h>
#include <string.h>

/* ------------------------------------------------------------------------
 * Text form:
 *	 bloom:v1 layout=blocked [scheme=2 ]k=8 seed=0 bits=256 items=3 flags=0 coll=0 family=integer_ops hex=<2*m/8 hex digits>
 * "scheme=N" is written for every scheme but 1, which is what a text form
 * without it means (bloomset 1.0 and 1.1 wrote none): their text values
 * read as before, and a 1.1 filter prints as it did.
 * ------------------------------------------------------------------------
 */

#define BLOOM_TEXT_FMT1 "bloom:v%d layout=%s "
#define BLOOM_TEXT_FMT2 "k=%d seed=%llu bits=%llu items=%llu flags=%x coll=%x family=%s hex="

/* Write the text form's header into out (size bytes); returns its length. */
static int
bloom_text_header(const BloomFilter *f, char *out, size_t size)
{
	int			len = snprintf(out, size, BLOOM_TEXT_FMT1, f->version,
							   bloom_layout_name(f->layout));

	if (f->scheme != BLOOM_SCHEME_PGEXT)
		len += snprintf(out + len, size - (size_t) len, "scheme=%d ", f->scheme);
	len += snprintf(out + len, size - (size_t) len, BLOOM_TEXT_FMT2, f->nhashes,
					(unsigned long long) f->seed,
					(unsigned long long) f->nbits,
					(unsigned long long) f->nitems, f->flags,
					f->collfp, f->family);
	return len;
}

/* Bytes needed for the text form, including the terminating NUL. */
size_t
bloom_text_size(const BloomFilter *f)
{
	char		buf[512];

	return (size_t) bloom_text_header(f, buf, sizeof(buf)) + 2 * BLOOM_DATA_BYTES(f) + 1;
}

/* Write the text form into out (bloom_text_size(f) bytes). */
void
bloom_text_encode(const BloomFilter *f, char *out)
{
	static const char hexd[] = "0123456789abcdef";
	const uint8_t *bytes = (const uint8_t *) f->words;
	size_t		nbytes = BLOOM_DATA_BYTES(f);
	char		buf[512];
	int			len = bloom_text_header(f, buf, sizeof(buf));
	char	   *p = out + len;

	memcpy(out, buf, (size_t) len);
	for (size_t lo = 0, hi; lo < nbytes; lo = hi)
	{
		hi = bloom_chunk_end(lo, nbytes, BLOOM_POLL_BYTES);
		for (size_t i = lo; i < hi; i++)
		{
			*p++ = hexd[bytes[i] >> 4];
			*p++ = hexd[bytes[i] & 15];
		}
	}
	*p = '\0';
}

/* Expect the literal lit at *s and advance past it. */
static bool
bloom_expect(const char **s, const char *lit)
{
	size_t		n = strlen(lit);

	if (strncmp(*s, lit, n) != 0)
		return false;
	*s += n;
	return true;
}

/* Parse an unsigned decimal (base 10) or hex (base 16) number, no sign. */
static bool
bloom_parse_uint(const char **s, int base, uint64_t max, uint64_t *out)
{
	const char *p = *s;
	uint64_t	v = 0;

	if (!((*p >= '0' && *p <= '9') || (base == 16 && ((*p >= 'a' && *p <= 'f')))))
		return false;
	for (; *p; p++)
	{
		int			d;

		if (*p >= '0' && *p <= '9')
			d = *p - '0';
		else if (base == 16 && *p >= 'a' && *p <= 'f')
			d = *p - 'a' + 10;
		else
			break;
		if (v > (max - (uint64_t) d) / (uint64_t) base)
			return false;
		v = v * (uint64_t) base + (uint64_t) d;
	}
	*s = p;
	*out = v;
	return true;
}

/* Parse "key=<uint>" (with a leading space unless first). */
static bool
bloom_parse_field(const char **s, const char *key, int base, uint64_t max,
				  uint64_t *out)
{
	return bloom_expect(s, key) && bloom_parse_uint(s, base, max, out);
}

/*
 * Parse the header part of the text form into hdr (validated) and point
 * *hex at the hex digits.  Returns NULL on success, else the reason.
 */
const char *
bloom_text_decode_header(const char *s, BloomFilter *hdr, const char **hex)
{
	uint64_t	ver,
				scheme = BLOOM_SCHEME_PGEXT,
				k,
				flags,
				coll;
	char		layout[16];
	int			i;
	const char *why;

	memset(hdr, 0, sizeof(BloomFilter));
	if (!bloom_parse_field(&s, "bloom:v", 10, 255, &ver))
		return "expected \"bloom:v<version>\" at the start";
	if (!bloom_expect(&s, " layout="))
		return "expected \" layout=\"";
	for (i = 0; i < (int) sizeof(layout) - 1 && *s >= 'a' && *s <= 'z'; i++)
		layout[i] = *s++;
	layout[i] = '\0';
	if (bloom_layout_from_name(layout) < 0)
		return "unknown layout";
	/* absent: scheme 1, all that 1.0 and 1.1 wrote */
	if (strncmp(s, " scheme=", 8) == 0 &&
		(!bloom_parse_field(&s, " scheme=", 10, 255, &scheme) || scheme == BLOOM_SCHEME_PGEXT))
		return "malformed hashing scheme (scheme 1 is written without the field)";
	if (!bloom_parse_field(&s, " k=", 10, 255, &k) ||
		!bloom_parse_field(&s, " seed=", 10, UINT64_MAX, &hdr->seed) ||
		!bloom_parse_field(&s, " bits=", 10, UINT64_MAX, &hdr->nbits) ||
		!bloom_parse_field(&s, " items=", 10, UINT64_MAX, &hdr->nitems) ||
		!bloom_parse_field(&s, " flags=", 16, UINT32_MAX, &flags) ||
		!bloom_parse_field(&s, " coll=", 16, UINT32_MAX, &coll) ||
		!bloom_expect(&s, " family="))
		return "malformed or out-of-range header field";
	for (i = 0; i < BLOOM_FAMILY_LEN - 1 && bloom_family_char_ok(*s); i++)
		hdr->family[i] = *s++;
	if (!bloom_expect(&s, " hex="))
		return "expected \" hex=\" after the family";
	hdr->version = (uint8_t) ver;
	hdr->layout = (uint8_t) bloom_layout_from_name(layout);
	hdr->scheme = (uint8_t) scheme;
	hdr->nhashes = (uint8_t) k;
	hdr->flags = (uint32_t) flags;
	hdr->collfp = (uint32_t) coll;
	if ((why = bloom_check_header(hdr)) != NULL)
		return why;
	*hex = s;
	return NULL;
}

/* Value of each byte as a hex digit (either case), or -1. */
static const int8_t bloom_hexval[256] = {
#define X16 -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1
	X16, X16, X16,
	0, 1, 2, 3, 4, 5, 6, 7, 8, 9, -1, -1, -1, -1, -1, -1,	/* '0' .. '9' */
	-1, 10, 11, 12, 13, 14, 15, -1, -1, -1, -1, -1, -1, -1, -1, -1,	/* 'A' .. 'F' */
	X16,
	-1, 10, 11, 12, 13, 14, 15, -1, -1, -1, -1, -1, -1, -1, -1, -1,	/* 'a' .. 'f' */
	X16, X16, X16, X16, X16, X16, X16, X16, X16
#undef X16
};

/* Decode exactly nbits/8 bytes of hex into f's array; nothing may follow. */
const char *
bloom_text_decode_bits(const char *hex, BloomFilter *f)
{
	const uint8_t *in = (const uint8_t *) hex;
	uint8_t    *bytes = (uint8_t *) f->words;
	size_t		nbytes = BLOOM_DATA_BYTES(f);

	for (size_t lo = 0, hi; lo < nbytes; lo = hi)
	{
		hi = bloom_chunk_end(lo, nbytes, BLOOM_POLL_BYTES);
		for (size_t i = lo; i < hi; i++)
		{
			/* the NUL of a short string is no digit: reading stops there */
			int			d1 = bloom_hexval[in[2 * i]];
			int			d2 = d1 < 0 ? -1 : bloom_hexval[in[2 * i + 1]];

			if (d2 < 0)
				return "the bit array is truncated or has a non-hex digit";
			bytes[i] = (uint8_t) (d1 << 4 | d2);
		}
	}
	if (hex[2 * nbytes] != '\0')
		return "extra characters after the bit array";
	return NULL;
}

/* ------------------------------------------------------------------------
 * Binary form: the header fields in network byte order, then the bytes.
 * ------------------------------------------------------------------------
 */

static void
bloom_put_be(uint8_t *out, uint64_t v, int nbytes)
{
	for (int i = nbytes - 1; i >= 0; i--)
	{
		out[i] = (uint8_t) v;
		v >>= 8;
	}
}

static uint64_t
bloom_get_be(const uint8_t *in, int nbytes)
{
	uint64_t	v = 0;

	for (int i = 0; i < nbytes; i++)
		v = v << 8 | in[i];
	return v;
}

/* Write the BLOOM_WIRE_HEADER_SIZE header bytes of f. */
void
bloom_wire_encode_header(const BloomFilter *f, uint8_t *out)
{
	out[0] = f->version;
	out[1] = f->layout;
	out[2] = f->scheme;
	out[3] = f->nhashes;
	bloom_put_be(out + 4, f->seed, 8);
	bloom_put_be(out + 12, f->nbits, 8);
	bloom_put_be(out + 20, f->nitems, 8);
	bloom_put_be(out + 28, f->flags, 4);
	bloom_put_be(out + 32, f->collfp, 4);
	memcpy(out + 36, f->family, BLOOM_FAMILY_LEN);
}

/*
 * Parse and validate a binary header from buf (len bytes in all, header and
 * bit array); the total length must match the header exactly.
 */
const char *
bloom_wire_decode_header(const uint8_t *buf, size_t len, BloomFilter *hdr)
{
	const char *why;

	memset(hdr, 0, sizeof(BloomFilter));
	if (len < BLOOM_WIRE_HEADER_SIZE)
		return "the value is shorter than a filter header";
	if ((why = bloom_wire_decode_fields(buf, hdr)) != NULL)
		return why;
	if (len - BLOOM_WIRE_HEADER_SIZE != BLOOM_DATA_BYTES(hdr))
		return "the length of the bit array does not match the header";
	return NULL;
}

/*
 * Decode and validate the BLOOM_WIRE_HEADER_SIZE header bytes at buf into
 * hdr, without looking at what follows.
 */
const char *
bloom_wire_decode_fields(const uint8_t *buf, BloomFilter *hdr)
{
	memset(hdr, 0, sizeof(BloomFilter));
	hdr->version = buf[0];
	hdr->layout = buf[1];
	hdr->scheme = buf[2];
	hdr->nhashes = buf[3];
	hdr->seed = bloom_get_be(buf + 4, 8);
	hdr->nbits = bloom_get_be(buf + 12, 8);
	hdr->nitems = bloom_get_be(buf + 20, 8);
	hdr->flags = (uint32_t) bloom_get_be(buf + 28, 4);
	hdr->collfp = (uint32_t) bloom_get_be(buf + 32, 4);
	memcpy(hdr->family, buf + 36, BLOOM_FAMILY_LEN);
	return bloom_check_header(hdr);
}
