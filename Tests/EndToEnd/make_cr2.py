#!/usr/bin/env python3
"""Writes a minimal Canon CR2 (TIFF with "CR" at byte 8) whose first directory holds JPEG as its
one strip, as cameras store the preview: make_cr2.py PREVIEW.jpg OUT.CR2"""
import struct
import sys

jpeg = open(sys.argv[1], "rb").read()
entries = [(0x103, 3, 1, 6), (0x10F, 2, 6, None), (0x111, 4, 1, None), (0x112, 3, 1, 1), (0x117, 4, 1, len(jpeg))]
ifd = 16
data = ifd + 2 + 12 * len(entries) + 4
make_at, strip_at = data, data + 6
out = b"II*\x00" + struct.pack("<I", ifd) + b"CR\x02\x00" + b"\x00" * 4 + struct.pack("<H", len(entries))
for tag, kind, count, value in entries:
    if tag == 0x10F:
        value = make_at
    if tag == 0x111:
        value = strip_at
    out += struct.pack("<HHI", tag, kind, count) + (struct.pack("<HH", value, 0) if kind == 3 else struct.pack("<I", value))
out += struct.pack("<I", 0) + b"Canon\x00" + jpeg
open(sys.argv[2], "wb").write(out)
