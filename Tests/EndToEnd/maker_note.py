"""Writes a copy of a JPEG with an EXIF block holding a camera's maker note, as cameras write
them (exiftool cannot make a maker note from nothing): a little-endian TIFF of IFD0 (Make,
Model), an Exif directory (DateTimeOriginal, the maker note) and the note.

maker_note.py IN OUT sony X Y WIDTH HEIGHT     Sony's FocusLocation (0x2027)
maker_note.py IN OUT apple BURST-UUID DATE     Apple's BurstUUID (0x000b), DATE as EXIF writes it
"""
import struct
import sys

src, dst, kind = sys.argv[1:4]


def ifd(entries, at, data_at):
    """A directory at offset `at` of (tag, type, count, value bytes); values over 4 bytes go at
    `data_at` and after. Returns the directory's bytes and the values' bytes."""
    out, extra = struct.pack("<H", len(entries)), b""
    for tag, typ, count, value in entries:
        if len(value) <= 4:
            out += struct.pack("<HHI", tag, typ, count) + value.ljust(4, b"\0")
        else:
            out += struct.pack("<HHII", tag, typ, count, data_at + len(extra))
            extra += value + (b"\0" if len(value) % 2 else b"")
    return out + struct.pack("<I", 0), extra


def ascii(text):
    raw = text.encode() + b"\0"
    return (2, len(raw), raw)


if kind == "sony":
    x, y, w, h = map(int, sys.argv[4:8])
    make, model, date = "SONY", "ILCE-7M4", "2024:05:01 10:00:00"
else:
    burst, date = sys.argv[4], sys.argv[5]
    make, model = "Apple", "iPhone 15"

# Layout: header 8, IFD0 at 8 (3 entries), its values, the Exif IFD, its values, the note.
ifd0_size = 2 + 12 * 3 + 4
make_v, model_v = ascii(make), ascii(model)
ifd0_values_at = 8 + ifd0_size
ifd0_values_len = sum(len(v[2]) + len(v[2]) % 2 for v in (make_v, model_v) if len(v[2]) > 4)
exif_at = ifd0_values_at + ifd0_values_len
ifd0, ifd0_values = ifd([(0x010F, *make_v), (0x0110, *model_v), (0x8769, 4, 1, struct.pack("<I", exif_at))], 8, ifd0_values_at)
exif_size = 2 + 12 * 2 + 4
date_v = ascii(date)
exif_values_at = exif_at + exif_size
note_at = exif_values_at + len(date_v[2]) + len(date_v[2]) % 2
if kind == "sony":
    # A directory after the 12-byte name; offsets from the TIFF's start.
    body_at = note_at + 12
    entries, values = ifd([(0x2027, 3, 4, struct.pack("<4H", w, h, x, y))], body_at, body_at + 2 + 12 + 4)
    note = b"SONY DSC \0\0\0" + entries + values
else:
    # Big-endian, a directory after the 14-byte name, offsets from the note's start.
    raw = burst.encode() + b"\0"
    note = b"Apple iOS\0\0\x01MM" + struct.pack(">HHHII", 1, 0x000B, 2, len(raw), 32) + struct.pack(">I", 0) + raw
exif, exif_values = ifd([(0x9003, *date_v), (0x927C, 7, len(note), note)], exif_at, exif_values_at)
tiff = b"II*\0" + struct.pack("<I", 8) + ifd0 + ifd0_values + exif + exif_values
assert tiff[note_at:note_at + len(note)] == note  # the note's value is where its offsets count from
payload = b"Exif\0\0" + tiff
jpeg = open(src, "rb").read()
assert jpeg[:2] == b"\xff\xd8"
open(dst, "wb").write(b"\xff\xd8\xff\xe1" + struct.pack(">H", len(payload) + 2) + payload + jpeg[2:])
