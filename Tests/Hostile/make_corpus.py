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

# Videos: lying sizes, a million tracks, sound only, nothing, and real ones cut short.
def box(kind, body):
    return struct.pack('>I', 8 + len(body)) + kind + body

def full(kind, body, version=0):
    return box(kind, bytes([version, 0, 0, 0]) + body)

def movie(width, height, handler=b'vide', entry=b'avc1'):
    stsd_entry = box(entry, b'\0' * 6 + struct.pack('>H', 1) + b'\0' * 16 + struct.pack('>HH', width & 0xffff, height & 0xffff) + b'\0' * 50)
    stbl = box(b'stbl', full(b'stsd', struct.pack('>I', 1) + stsd_entry) + full(b'stts', struct.pack('>III', 1, 10, 1000))
               + full(b'stsc', struct.pack('>I', 0)) + full(b'stsz', struct.pack('>II', 0, 0)) + full(b'stco', struct.pack('>I', 0)))
    mdia = box(b'mdia', full(b'mdhd', struct.pack('>IIII', 0, 0, 1000, 10000) + b'\0' * 4)
               + full(b'hdlr', struct.pack('>I', 0) + handler + b'\0' * 13) + box(b'minf', stbl))
    tkhd = full(b'tkhd', struct.pack('>IIIII', 0, 0, 1, 0, 10000) + b'\0' * 16 + struct.pack('>9i', 65536, 0, 0, 0, 65536, 0, 0, 0, 1 << 30)
                + struct.pack('>II', (width & 0xffff) << 16, (height & 0xffff) << 16))
    mvhd = full(b'mvhd', struct.pack('>IIII', 0, 0, 1000, 10000) + b'\0' * 80)
    return box(b'ftyp', b'isom\0\0\0\0isom') + box(b'moov', mvhd + box(b'trak', tkhd + mdia))
put('video-huge-frame.mp4', movie(100000, 100000))
put('video-sound-only.mp4', movie(0, 0, handler=b'soun', entry=b'mp4a'))
put('video-million-tracks.mov', box(b'ftyp', b'qt  \0\0\0\0qt  ') + box(b'moov', box(b'trak', b'') * 1_000_000))
put('video-zero.mov', b'')
put('video-moov-loop.mp4', box(b'ftyp', b'isom\0\0\0\0isom') + struct.pack('>I', 0xffffffff) + b'moov' + b'\0' * 64)
put('video-ebml-junk.mkv', b'\x1a\x45\xdf\xa3' + bytes(rng.randrange(256) for _ in range(3000)))
put('video-avi-junk.avi', b'RIFF\0\0\0\0AVI LIST' + bytes(rng.randrange(256) for _ in range(3000)))
try:
    import subprocess, tempfile
    with tempfile.TemporaryDirectory() as tmp:
        for ext, codec in (('mp4', 'libx264'), ('mkv', 'libx264'), ('webm', 'libvpx'), ('avi', 'mpeg4')):
            made = os.path.join(tmp, 'clip.' + ext)
            subprocess.run(['ffmpeg', '-nostdin', '-loglevel', 'error', '-y', '-f', 'lavfi', '-i', 'testsrc2=s=320x240:r=25:d=2',
                            '-c:v', codec, made], check=True)
            whole = open(made, 'rb').read()
            for part in (16, 200, len(whole) // 3, len(whole) - 100):
                put(f'video-cut-{part}.{ext}', whole[:part])
            flipped = bytearray(whole)
            for k in range(40):
                flipped[rng.randrange(len(flipped))] ^= 0xff
            put(f'video-flipped.{ext}', bytes(flipped))
except (OSError, subprocess.CalledProcessError) as error:
    sys.exit(f'ffmpeg (make test-hostile installs it) could not make the video corpus: {error}')

# RAWs: previews that point outside the file, directories that loop, a thousand sub-directories.
def tiff(entries, tail=b'', magic=b''):
    start = 8 + len(magic)
    body = struct.pack('<H', len(entries)) + b''.join(struct.pack('<HHII', *e) for e in entries) + struct.pack('<I', 0)
    return b'II*\0' + struct.pack('<I', start) + magic + body + tail
put('raw-preview-outside.cr2', tiff([(0x103, 3, 1, 6), (0x111, 4, 1, 0x7ffffff0), (0x117, 4, 1, 4096)], magic=b'CR\x02\0\0\0\0\0'))
put('raw-preview-length-lies.nef', tiff([(0x14A, 4, 1, 8), (0x201, 4, 1, 30), (0x202, 4, 1, 0x7fffffff)], tail=b'\xff\xd8\xff' + b'\0' * 64))
put('raw-subifd-loop.dng', tiff([(0xC612, 1, 4, 0x00000401), (0x14A, 4, 1, 8)]))
put('raw-thousand-subifds.dng', tiff([(0xC612, 1, 4, 0x00000401), (0x14A, 4, 1000, 26)], tail=struct.pack('<1000I', *([8] * 1000))))
put('raw-raf-outside.raf', b'FUJIFILMCCD-RAW 0201FF383501' + b'\0' * 56 + struct.pack('>II', 0x7ffffff0, 100000) + b'\0' * 100)
put('raw-cr3-junk.cr3', box(b'ftyp', b'crx \0\0\0\1crx isom') + box(b'uuid', b'\0' * 16 + box(b'PRVW', b'\0' * 12 + struct.pack('>I', 0x7fffffff) + b'\xff\xd8')))
put('raw-good-preview-bad-sensor.dng', tiff([(0xC612, 1, 4, 0x00000401), (0x201, 4, 1, 8 + 2 + 36 + 4), (0x202, 4, 1, len(good_jpeg))], tail=good_jpeg))

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
