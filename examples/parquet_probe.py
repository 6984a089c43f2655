#!/usr/bin/python3
"""examples/parquet_probe.py -- probe a Parquet split-block Bloom filter
outside PostgreSQL: the bytes of bloomset's bloom_to_parquet(f), or a filter
read from a Parquet file at its bloom_filter_offset.

The filter is a Thrift compact BloomFilterHeader followed by the bitset
(the Parquet format's BloomFilter.md).  A value is hashed with XXH64 (seed 0)
of its Parquet PLAIN encoding; the upper 32 bits of the hash pick a 32-byte
block, the lower 32 bits one bit in each of the block's eight words.  Only
the standard library and python3-xxhash (Debian) are needed.

    from parquet_probe import ParquetBloom
    f = ParquetBloom(open('customer_ids.bin', 'rb').read())   # bytes of bloom_to_parquet(f)
    f.may_contain(42, 'INT64')        # False: certainly absent

Command line (used by the tests): parquet_probe.py FILTER_FILE TYPE
reads one value per line on stdin and prints "t" (may be present) or "f"
(certainly absent) per line.  TYPE is the Parquet physical type of the
column: INT32, INT64, FLOAT, DOUBLE, BYTE_ARRAY or FIXED_LEN_BYTE_ARRAY, or
DATE (INT32 days) or TIMESTAMP_MICROS (INT64) for dates and timestamps
written as text (2024-05-01, 2024-05-01 12:30:00.25).
"""
import datetime
import struct
import sys
import uuid as uuidlib

import xxhash

EPOCH = datetime.datetime(1970, 1, 1)
SALT = (0x47b6137b, 0x44974d91, 0x8824ad5b, 0xa2b7289d,
        0x705495c7, 0x2df1424b, 0x9efc4947, 0x5c6bfb31)


def _varint(buf, pos):
    """An unsigned LEB128 varint at pos: (value, next position)."""
    value = shift = 0
    while True:
        if pos >= len(buf):
            raise ValueError('truncated Thrift header')
        b = buf[pos]
        pos += 1
        value |= (b & 0x7F) << shift
        if not b & 0x80:
            return value, pos
        shift += 7
        if shift > 63:
            raise ValueError('varint too long in Thrift header')


def _skip_struct(buf, pos, depth=0):
    """Skip a compact-protocol struct whose fields start at pos; returns
    ({field id: i32 value}, position after its STOP byte)."""
    if depth > 8:
        raise ValueError('Thrift header nested too deeply')
    fields, last = {}, 0
    while True:
        if pos >= len(buf):
            raise ValueError('truncated Thrift header')
        byte = buf[pos]
        pos += 1
        if byte == 0:
            return fields, pos
        ftype, delta = byte & 0x0F, byte >> 4
        if delta == 0:
            raise ValueError('long-form field ids are not used by BloomFilterHeader')
        last += delta
        if ftype in (1, 2):                 # boolean true / false
            continue
        if ftype in (4, 5, 6):              # i16, i32, i64: zigzag varint
            v, pos = _varint(buf, pos)
            fields[last] = (v >> 1) ^ -(v & 1)
        elif ftype == 12:                   # struct (unions are structs)
            _, pos = _skip_struct(buf, pos, depth + 1)
            fields[last] = 'struct'
        else:
            raise ValueError(f'unexpected Thrift field type {ftype}')


class ParquetBloom:
    """A split-block Bloom filter, from its header and bitset."""

    def __init__(self, data):
        fields, hdr_len = _skip_struct(data, 0)
        num_bytes = fields.get(1)
        if num_bytes is None or any(f not in fields for f in (2, 3, 4)):
            raise ValueError('not a BloomFilterHeader')
        if num_bytes < 32 or num_bytes % 32 or hdr_len + num_bytes != len(data):
            raise ValueError(f'bitset of {num_bytes} bytes does not fit the {len(data)} given')
        self.bitset = data[hdr_len:]
        self.blocks = num_bytes // 32

    def may_contain_hash(self, h):
        block = ((h >> 32) * self.blocks) >> 32
        x = h & 0xFFFFFFFF
        for i in range(8):
            word, = struct.unpack_from('<I', self.bitset, block * 32 + 4 * i)
            if not (word >> (((x * SALT[i]) & 0xFFFFFFFF) >> 27)) & 1:
                return False
        return True

    def may_contain(self, value, ptype):
        return self.may_contain_hash(xxhash.xxh64_intdigest(plain(value, ptype), 0))


def plain(value, ptype):
    """The Parquet PLAIN encoding of a Python value as a column of ptype."""
    if ptype == 'INT32':
        return struct.pack('<i', int(value))
    if ptype == 'INT64':
        return struct.pack('<q', int(value))
    if ptype == 'DATE':                 # INT32: days since 1970-01-01
        if not isinstance(value, datetime.date):
            value = datetime.date.fromisoformat(str(value))
        return struct.pack('<i', (value - EPOCH.date()).days)
    if ptype == 'TIMESTAMP_MICROS':     # INT64: microseconds since 1970-01-01
        if not isinstance(value, datetime.datetime):
            value = datetime.datetime.fromisoformat(str(value))
        if value.tzinfo is not None:
            value = value.astimezone(datetime.timezone.utc).replace(tzinfo=None)
        d = value - EPOCH
        return struct.pack('<q', (d.days * 86400 + d.seconds) * 1000000 + d.microseconds)
    if ptype == 'FLOAT':
        return struct.pack('<f', float(value))
    if ptype == 'DOUBLE':
        return struct.pack('<d', float(value))
    if ptype == 'BYTE_ARRAY':
        return value if isinstance(value, bytes) else str(value).encode('utf-8')
    if ptype == 'FIXED_LEN_BYTE_ARRAY':     # uuid: 16 bytes, big-endian
        return value if isinstance(value, bytes) else uuidlib.UUID(str(value)).bytes
    raise ValueError(f'unsupported Parquet type {ptype}')


def main():
    if len(sys.argv) != 3:
        sys.exit('usage: parquet_probe.py FILTER_FILE TYPE < values')
    with open(sys.argv[1], 'rb') as fh:
        f = ParquetBloom(fh.read())
    ptype = sys.argv[2]
    out = sys.stdout
    for line in sys.stdin:
        out.write('t\n' if f.may_contain(line.rstrip('\n'), ptype) else 'f\n')


if __name__ == '__main__':
    main()
