#!/usr/bin/env python3
"""Checks an X screenshot (binary PPM) of xterm showing Lightbox in sixel.

usage: screenshot.py SHOT.ppm CELL_HEIGHT present|absent COLOURS... [-- textrows ROWS... | -- headerband RRGGBB | -- rightof X]

present: each colour (RRGGBB) fills a solid rectangle of at least 2,000 pixels: a sixel picture
(the 16 ANSI colours of a half-block fallback would not match it exactly).
absent: no pixel of these colours is left anywhere (no stale picture).
textrows: no pixel of any colour named lies in these rows of cells (headers, the status line).
headerband: the same for every pixel row mostly of this colour (a header bar), wherever it is.
rightof: no pixel of any colour named lies left of pixel column X (a tmux pane's left edge).
"""
import sys

TOLERANCE = 4

def read_ppm(path):
    """Width, height and pixels of a PPM; None when the file is empty or cut (xwd found no display)."""
    data = open(path, 'rb').read()
    fields, i = [], 0
    while len(fields) < 4:
        while data[i:i+1].isspace(): i += 1
        if data[i:i+1] == b'#':
            while i < len(data) and data[i:i+1] != b'\n': i += 1
            continue
        j = i
        while j < len(data) and not data[j:j+1].isspace(): j += 1
        if j == i:
            return None
        fields.append(data[i:j]); i = j
    assert fields[0] == b'P6' and fields[3] in (b'255', b'65535'), fields
    pixels = data[i+1:]
    if fields[3] == b'65535':  # two bytes a sample (xwdtopnm on some visuals): keep the high ones
        pixels = pixels[0::2]
    return int(fields[1]), int(fields[2]), pixels

def main():
    path, cell_height = sys.argv[1], int(sys.argv[2])
    args = sys.argv[3:]
    text_rows, band, left_edge = [], None, 0
    if '--' in args:
        rest = args[args.index('--') + 1:]
        if rest[0] == 'headerband':
            band = tuple(int(rest[1][k:k+2], 16) for k in (0, 2, 4))
        elif rest[0] == 'rightof':
            left_edge = int(rest[1])
        else:
            text_rows = [int(r) for r in rest[1:]]
        args = args[:args.index('--')]
    mode, colours = args[0], [tuple(int(c[k:k+2], 16) for k in (0, 2, 4)) for c in args[1:]]
    ppm = read_ppm(path)
    if ppm is None:
        print('no screenshot (the display did not answer)'); sys.exit(1)
    width, height, pixels = ppm
    near = lambda p, c: abs(p[0]-c[0]) <= TOLERANCE and abs(p[1]-c[1]) <= TOLERANCE and abs(p[2]-c[2]) <= TOLERANCE
    band_rows = set()
    if band:
        for y in range(height):
            row = pixels[y * width * 3:(y + 1) * width * 3]
            if sum(near((row[3*x], row[3*x+1], row[3*x+2]), band) for x in range(0, width, 4)) * 4 >= 0.4 * width:
                band_rows.add(y)
        if not band_rows:
            print('no header band in the screenshot'); sys.exit(1)
    boxes = {c: [width, height, -1, -1, 0] for c in colours}
    row_hits = []
    for y in range(height):
        row = pixels[y * width * 3:(y + 1) * width * 3]
        for x in range(width):
            p = (row[3*x], row[3*x+1], row[3*x+2])
            for c in colours:
                if abs(p[0]-c[0]) <= TOLERANCE and abs(p[1]-c[1]) <= TOLERANCE and abs(p[2]-c[2]) <= TOLERANCE:
                    b = boxes[c]
                    b[0] = min(b[0], x); b[1] = min(b[1], y); b[2] = max(b[2], x); b[3] = max(b[3], y); b[4] += 1
                    if y // cell_height in text_rows or y in band_rows or x < left_edge: row_hits.append((x, y, c))
    problems = []
    for c, (x0, y0, x1, y1, count) in boxes.items():
        name = '%02x%02x%02x' % c
        if mode == 'present':
            area = (x1 - x0 + 1) * (y1 - y0 + 1) if count else 0
            if count < 2000 or count < 0.9 * area:
                problems.append(f'{name}: {count} pixels in a {x1-x0+1}x{y1-y0+1} box, not a solid picture')
        elif count:
            problems.append(f'{name}: {count} pixels left at ({x0},{y0})-({x1},{y1})')
    if row_hits:
        x, y, c = row_hits[0]
        where = f'left of x={left_edge}' if left_edge else f'in text rows {text_rows or "of the header band"}'
        problems.append(f'{len(row_hits)} picture pixels {where}, first at ({x},{y})')
    print('\n'.join(problems) if problems else 'ok')
    sys.exit(1 if problems else 0)

main()
