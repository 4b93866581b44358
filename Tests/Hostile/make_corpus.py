#!/usr/bin/env python3
"""Writes a corpus of hostile inputs: bombs, lying headers, truncations and junk in every format,
plus files with hostile names. Usage: make_corpus.py OUT-DIR GOOD-JPEG GOOD-PNG"""
import os, random, struct, sys, zlib

out, good_jpeg, good_png = sys.argv[1], open(sys.argv[2], 'rb').read(), open(sys.argv[3], 'rb').read()
os.makedirs(out, exist_ok=True)
rng = random.Random(1234)

def put(name, data):
    with open(os.path.join(out, name), 'wb') as f:
        f.write(data)

def chunk(kind, body):
    return struct.pack('>I', len(body)) + kind + body + struct.pack('>I', zlib.crc32(kind + body) & 0xffffffff)

def png(width, height, idat=None, color=2):
    raw = idat if idat is not None else zlib.compress(b'\0' * 16)
    return b'\x89PNG\r\n\x1a\n' + chunk(b'IHDR', struct.pack('>IIBBBBB', width, height, 8, color, 0, 0, 0)) + chunk(b'IDAT', raw) + chunk(b'IEND', b'')

# PNG
put('png-huge.png', png(100000, 100000))
put('png-zero-width.png', png(0, 10))
put('png-lying-idat.png', png(4000, 4000, zlib.compress(b'\0' * 100)))
put('png-bad-crc.png', good_png[:40] + b'\xff\xff' + good_png[42:])
put('png-bad-colortype.png', png(10, 10, color=9))
put('png-idat-bomb.png', png(5000, 5000, zlib.compress(b'\0' * (5000 * 15001))))
for cut in (9, 20, 33, 60, len(good_png) // 2, len(good_png) - 5):
    put(f'png-cut-{cut}.png', good_png[:cut])

# GIF
put('gif-bomb.gif', b'GIF89a' + struct.pack('<HH', 10, 10) + b'\0\0\0' + b',' + struct.pack('<HHHH', 0, 0, 65535, 65535) + b'\0' + b'\x02\x02\x4c\x01\0' + b';')
put('gif-zero.gif', b'GIF89a' + struct.pack('<HH', 0, 0) + b'\0\0\0;')
put('gif-truncated.gif', b'GIF89a' + struct.pack('<HH', 100, 100) + b'\x80\0\0' + b'\0' * 5)
put('gif-endless-blocks.gif', b'GIF89a' + struct.pack('<HH', 10, 10) + b'\0\0\0' + b'!\xf9' + b'\xff' * 3000)

# JPEG
sof = good_jpeg.find(b'\xff\xc0')
if sof > 0:
    put('jpeg-huge-sof.jpg', good_jpeg[:sof + 5] + struct.pack('>HH', 65500, 65500) + good_jpeg[sof + 9:])
    put('jpeg-zero-sof.jpg', good_jpeg[:sof + 5] + struct.pack('>HH', 0, 0) + good_jpeg[sof + 9:])
for cut in (3, 4, 20, 200, len(good_jpeg) // 3, len(good_jpeg) - 2):
    put(f'jpeg-cut-{cut}.jpg', good_jpeg[:cut])
def exif_jpeg(tiff):
    body = b'Exif\0\0' + tiff
    return b'\xff\xd8\xff\xe1' + struct.pack('>H', len(body) + 2) + body + good_jpeg[2:]
put('jpeg-exif-ifd-loop.jpg', exif_jpeg(b'II*\0' + struct.pack('<I', 8) + struct.pack('<H', 1) + struct.pack('<HHII', 0x0112, 3, 1, 6) + struct.pack('<I', 8)))
put('jpeg-exif-lying-thumb.jpg', exif_jpeg(b'II*\0' + struct.pack('<I', 8) + struct.pack('<H', 0) + struct.pack('<I', 14) + struct.pack('<H', 2)
    + struct.pack('<HHII', 0x0201, 4, 1, 0xfffffff0) + struct.pack('<HHII', 0x0202, 4, 1, 0x7fffffff) + struct.pack('<I', 0)))
put('jpeg-exif-huge-count.jpg', exif_jpeg(b'MM\0*' + struct.pack('>I', 8) + struct.pack('>H', 0xffff)))
# An EXIF thumbnail whose own header claims 65500x49125, the photo's 4:3 shape (decoded at 1/8: 150 MB).
if sof > 0:
    (height, width) = struct.unpack('>HH', good_jpeg[sof + 5:sof + 9])
    lying = good_jpeg[:sof + 5] + struct.pack('>HH', 65500 * height // width, 65500) + good_jpeg[sof + 9:]
    ifd1 = struct.pack('<H', 2) + struct.pack('<HHII', 0x0201, 4, 1, 44) + struct.pack('<HHII', 0x0202, 4, 1, len(lying)) + struct.pack('<I', 0)
    put('jpeg-exif-thumbnail-bomb.jpg', exif_jpeg(b'II*\0' + struct.pack('<I', 8) + struct.pack('<H', 0) + struct.pack('<I', 14) + ifd1 + lying))
put('jpeg-segment-length-lies.jpg', b'\xff\xd8\xff\xe0\xff\xff' + b'\0' * 100)

# WebP, TIFF, HEIF
put('webp-huge.webp', b'RIFF' + b'\0' * 4 + b'WEBPVP8X' + struct.pack('<I', 10) + b'\0' * 4 + b'\xff\xff\xff\xff\xff\xff' + b'\0' * 8)
put('webp-truncated.webp', b'RIFF\x10\0\0\0WEBPVP8 ')
put('tiff-huge.tiff', b'II*\0' + struct.pack('<I', 8) + struct.pack('<H', 2) + struct.pack('<HHII', 256, 4, 1, 200000) + struct.pack('<HHII', 257, 4, 1, 200000) + struct.pack('<I', 0))
put('tiff-ifd-out-of-file.tiff', b'MM\0*' + struct.pack('>I', 0x7fffffff))
put('heif-huge.heic', b'\0\0\0\x18ftypheic' + b'\0' * 12 + struct.pack('>I', 20) + b'ispe' + b'\0' * 4 + struct.pack('>II', 90000, 90000))
put('heif-junk.heic', b'\0\0\0\x18ftypheic' + bytes(rng.randrange(256) for _ in range(400)))

# Junk behind every signature, and things named like images that are not.
for i, sig in enumerate([b'\xff\xd8\xff', b'\x89PNG\r\n\x1a\n', b'GIF89a', b'RIFF\0\0\0\0WEBP', b'II*\0', b'\0\0\0\x18ftypavif']):
    for j in range(3):
        put(f'junk-{i}-{j}.img', sig + bytes(rng.randrange(256) for _ in range(rng.choice([1, 30, 500, 5000]))))
put('empty.jpg', b'')
put('text.jpg', b'just some text\n')
put('drawing.png', b'<svg xmlns="http://www.w3.org/2000/svg"/>')
put('portable.jpg', b'P6\n1 1\n255\n\0\0\0')

# Hostile names on a good image: escape sequences, bidi overrides, invalid UTF-8.
for name in [b'\x1b]0;pwned\x07.jpg', b'\x1b[2J\x1b[31mred.jpg', '\u202egpj.exe.jpg'.encode(), b'\xff\xfe.jpg', b'tab\there.jpg']:
    with open(os.path.join(out.encode(), name), 'wb') as f:
        f.write(good_jpeg)
print(len(os.listdir(out)), 'files in', out)
