/*-------------------------------------------------------------------------
 *
 * parquet_format.c
 *	  The Thrift compact BloomFilterHeader of a Parquet split-block filter
 *	  and the Parquet Bloom filter hash (PostgreSQL-free; see
 *	  parquet_format.h for the layout).
 *
 * The decoder reads the compact protocol generally enough to skip fields a
 * later Parquet version may add (any type, nested up to a fixed depth), and
 * checks what a reader must: the three unions name BLOCK, XXHASH and
 * UNCOMPRESSED, and numBytes is a whole number of blocks that is exactly
 * what follows the header.  Every read is bounds-checked against the
 * buffer; malformed input yields a reason string, never a read past it.
 *
 * XXH64 comes from Debian's libxxhash-dev as inline code (XXH_INLINE_ALL):
 * nothing is linked at run time, and the result does not depend on the CPU
 * (xxHash defines XXH64 on little-endian reads of the input).
 *
 *-------------------------------------------------------------------------
 */
#include "parquet_format.h"

#include <stdbool.h>

#define XXH_INLINE_ALL
#include <xxhash.h>

/* Thrift compact protocol field types */
#define TC_TRUE		1
#define TC_FALSE	2
#define TC_BYTE		3
#define TC_I16		4
#define TC_I32		5
#define TC_I64		6
#define TC_DOUBLE	7
#define TC_BINARY	8
#define TC_LIST		9
#define TC_SET		10
#define TC_MAP		11
#define TC_STRUCT	12

/* nesting a skipped field may have; the header itself needs 2 */
#define TC_MAX_DEPTH	8

typedef struct TcReader
{
	const uint8_t *p;
	const uint8_t *end;
	const char *error;			/* first reason the input is malformed */
} TcReader;

static bool
tc_fail(TcReader *r, const char *why)
{
	if (r->error == NULL)
		r->error = why;
	return false;
}

/* An unsigned LEB128 varint of at most 64 bits. */
static bool
tc_varint(TcReader *r, uint64_t *v)
{
	*v = 0;
	for (int shift = 0; shift < 64; shift += 7)
	{
		uint8_t		b;

		if (r->p >= r->end)
			return tc_fail(r, "the Thrift header is truncated");
		b = *r->p++;
		*v |= (uint64_t) (b & 0x7F) << shift;
		if ((b & 0x80) == 0)
			return true;
	}
	return tc_fail(r, "the Thrift header has an overlong varint");
}

static int64_t
tc_unzigzag(uint64_t v)
{
	return (int64_t) (v >> 1) ^ -(int64_t) (v & 1);
}

static bool tc_skip(TcReader *r, int type, int depth);

/* Skips the elements of a list or set (its header at r->p). */
static bool
tc_skip_list(TcReader *r, int depth)
{
	uint8_t		h;
	uint64_t	n;

	if (r->p >= r->end)
		return tc_fail(r, "the Thrift header is truncated");
	h = *r->p++;
	n = h >> 4;
	if (n == 15 && !tc_varint(r, &n))
		return false;
	if (n > (uint64_t) (r->end - r->p))	/* every element takes a byte or more */
		return tc_fail(r, "a list in the Thrift header is longer than the header");
	for (uint64_t i = 0; i < n; i++)
	{
		/* booleans in a list are a byte each, not in the type */
		int			elem = h & 0x0F;

		if (!tc_skip(r, elem == TC_TRUE || elem == TC_FALSE ? TC_BYTE : elem, depth + 1))
			return false;
	}
	return true;
}

/* Skips the entries of a map (its header at r->p). */
static bool
tc_skip_map(TcReader *r, int depth)
{
	uint64_t	n;
	uint8_t		kv;

	if (!tc_varint(r, &n))
		return false;
	if (n == 0)
		return true;
	if (r->p >= r->end)
		return tc_fail(r, "the Thrift header is truncated");
	kv = *r->p++;
	if (n > (uint64_t) (r->end - r->p))
		return tc_fail(r, "a map in the Thrift header is longer than the header");
	for (uint64_t i = 0; i < n; i++)
		if (!tc_skip(r, kv >> 4, depth + 1) || !tc_skip(r, kv & 0x0F, depth + 1))
			return false;
	return true;
}

/*
 * The next field header of a struct: 1 with its type and id (the id a delta
 * from *last, or a zigzag varint after the type), 0 at the STOP byte, -1 on
 * malformed input.
 */
static int
tc_field(TcReader *r, int *last, int *type, int *id)
{
	uint8_t		h;
	int64_t		fid;

	if (r->p >= r->end)
	{
		tc_fail(r, "the Thrift header is truncated");
		return -1;
	}
	h = *r->p++;
	if (h == 0)
		return 0;
	*type = h & 0x0F;
	if (h >> 4)
		fid = (int64_t) *last + (h >> 4);
	else
	{
		uint64_t	v;

		if (!tc_varint(r, &v))
			return -1;
		fid = tc_unzigzag(v);
	}
	/* Thrift field ids are i16: a larger one is no header, and would overflow */
	if (fid < INT16_MIN || fid > INT16_MAX)
	{
		tc_fail(r, "a Thrift field id is out of range");
		return -1;
	}
	*id = (int) fid;
	*last = *id;
	return 1;
}

/*
 * Reads a union (a struct with one field set) and sets *member to the id of
 * that field; 0 when none is set, -1 when several are.
 */
static bool
tc_union(TcReader *r, int depth, int *member)
{
	int			last = 0,
				type,
				id,
				more;

	*member = 0;
	if (depth > TC_MAX_DEPTH)
		return tc_fail(r, "the Thrift header is nested too deeply");
	while ((more = tc_field(r, &last, &type, &id)) > 0)
	{
		*member = *member == 0 ? id : -1;
		if (!tc_skip(r, type, depth + 1))
			return false;
	}
	return more == 0;
}

/*
 * Reads the top-level BloomFilterHeader up to its STOP byte: field 1 into
 * *num_bytes (-1 if absent), the member ids of the unions in fields 2..4
 * into member[2..4] (0 if absent); other fields are skipped.
 */
static bool
tc_header(TcReader *r, int64_t *num_bytes, int member[5])
{
	int			last = 0,
				type,
				id,
				more;
	uint64_t	v;

	*num_bytes = -1;
	for (int i = 0; i < 5; i++)
		member[i] = 0;
	while ((more = tc_field(r, &last, &type, &id)) > 0)
	{
		if (id == 1 && type == TC_I32)
		{
			if (!tc_varint(r, &v))
				return false;
			*num_bytes = tc_unzigzag(v);
		}
		else if (id >= 2 && id <= 4 && type == TC_STRUCT)
		{
			if (!tc_union(r, 1, &member[id]))
				return false;
		}
		else if (!tc_skip(r, type, 1))
			return false;
	}
	return more == 0;
}

/* Skips one value of a compact-protocol type. */
static bool
tc_skip(TcReader *r, int type, int depth)
{
	uint64_t	v;
	int			member;

	if (depth > TC_MAX_DEPTH)
		return tc_fail(r, "the Thrift header is nested too deeply");
	switch (type)
	{
		case TC_TRUE:
		case TC_FALSE:
			return true;		/* the value is in the type (in a struct) */
		case TC_BYTE:
			if (r->p >= r->end)
				return tc_fail(r, "the Thrift header is truncated");
			r->p++;
			return true;
		case TC_I16:
		case TC_I32:
		case TC_I64:
			return tc_varint(r, &v);
		case TC_DOUBLE:
			if (r->end - r->p < 8)
				return tc_fail(r, "the Thrift header is truncated");
			r->p += 8;
			return true;
		case TC_BINARY:
			if (!tc_varint(r, &v))
				return false;
			if (v > (uint64_t) (r->end - r->p))
				return tc_fail(r, "the Thrift header is truncated");
			r->p += v;
			return true;
		case TC_LIST:
		case TC_SET:
			return tc_skip_list(r, depth);
		case TC_MAP:
			return tc_skip_map(r, depth);
		case TC_STRUCT:
			return tc_union(r, depth, &member);	/* any struct: fields skipped */
		default:
			return tc_fail(r, "the Thrift header has a field of an unknown type");
	}
}

const char *
parquet_locate_bitset(const uint8_t *buf, size_t len, size_t *offset,
					  size_t *nbytes)
{
	TcReader	r = {buf, buf + len, NULL};
	int64_t		num_bytes;
	int			member[5];

	if (len % PARQUET_BLOCK_BYTES == 0)
	{
		/* a bare bitset */
		if (len == 0)
			return "the bitset is empty";
		if (len > PARQUET_MAX_BITSET)
			return "the bitset is larger than 256 MiB";
		*offset = 0;
		*nbytes = len;
		return NULL;
	}
	if (!tc_header(&r, &num_bytes, member))
		return r.error;
	if (num_bytes < 0)
		return "the Thrift header has no numBytes field";
	if (member[2] != 1)
		return "the filter's algorithm is not BLOCK (the split-block filter)";
	if (member[3] != 1)
		return "the filter's hash is not XXHASH";
	if (member[4] != 1)
		return "the filter is compressed (only UNCOMPRESSED is defined)";
	if (num_bytes == 0 || num_bytes % PARQUET_BLOCK_BYTES != 0)
		return "numBytes is not a positive multiple of 32";
	if ((uint64_t) num_bytes > PARQUET_MAX_BITSET)
		return "the bitset is larger than 256 MiB";
	if ((size_t) num_bytes != (size_t) (r.end - r.p))
		return "numBytes does not match the length of the bytes after the header";
	*offset = (size_t) (r.p - buf);
	*nbytes = (size_t) num_bytes;
	return NULL;
}

/* zigzag varint of a non-negative i32 */
static size_t
tc_put_i32(uint8_t *out, uint32_t v)
{
	uint32_t	z = v << 1;
	size_t		n = 0;

	while (z >= 0x80)
	{
		out[n++] = (uint8_t) (z | 0x80);
		z >>= 7;
	}
	out[n++] = (uint8_t) z;
	return n;
}

size_t
parquet_encode_header(size_t nbytes, uint8_t *out)
{
	size_t		n = 0;

	out[n++] = (1 << 4) | TC_I32;	/* 1: numBytes */
	n += tc_put_i32(out + n, (uint32_t) nbytes);
	for (int field = 2; field <= 4; field++)
	{
		out[n++] = (1 << 4) | TC_STRUCT;	/* the union ... */
		out[n++] = (1 << 4) | TC_STRUCT;	/* ... its member 1, an empty struct */
		out[n++] = 0;
		out[n++] = 0;
	}
	out[n++] = 0;				/* end of BloomFilterHeader */
	return n;
}

uint64_t
parquet_hash(const void *plain, size_t len)
{
	return XXH64(plain, len, 0);
}

uint64_t
parquet_hash_fixed(uint64_t v, int width)
{
	uint8_t		buf[8];

	for (int i = 0; i < width; i++)
		buf[i] = (uint8_t) (v >> (8 * i));
	return XXH64(buf, (size_t) width, 0);
}
