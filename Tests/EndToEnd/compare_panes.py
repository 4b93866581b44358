"""Reads a screenshot (PNM on stdin) of Lightbox comparing photos of 50-pixel stripes (red
across, green down) and says whether its panes show the same region of each at 100%.

compare_panes.py COLUMNS ROWS CELL_WIDTH CELL_HEIGHT COUNT ASPECT MODE
MODE same: every pane's stripes agree and are 50 screen pixels wide (1:1); prints "ok PHASE".
MODE alone: the first pane differs from the second, the others agree; prints "ok".
The panes are where CompareLayout puts them (Sources/LightboxLayout/CompareLayout.swift)."""
import math
import sys

columns, rows, cw, ch, count = map(int, sys.argv[1:6])
aspect, mode = float(sys.argv[6]), sys.argv[7]


def panes(count, width, height, aspect):
    best = None
    for c in range(count, 0, -1):
        r = math.ceil(count / c)
        pw, ph = (width - (c - 1)) // c, height // r - 1
        if pw <= 0 or ph <= 0:
            continue
        area = ph * ph * aspect if pw / ph >= aspect else pw * pw / aspect
        if best is None or area > best[1] * 1.0001:
            best = (c, area)
    c = best[0]
    r = math.ceil(count / c)
    pw, ph = (width - (c - 1)) // c, height // r
    out = []
    for i in range(count):
        row, col = divmod(i, c)
        in_row = count - row * c if row == r - 1 else c
        left = (width - (in_row * pw + in_row - 1)) // 2
        out.append((left + col * (pw + 1), row * ph, pw, ph - 1))
    return out


data = sys.stdin.buffer.read()
parts = data.split(b"\n", 3)
w, h = map(int, parts[1].split())
px = parts[3]


def red(x, y):
    return px[(y * w + x) * 3] > 128


def green(x, y):
    return px[(y * w + x) * 3 + 1] > 128


def pixel(x, y):
    return tuple(px[(y * w + x) * 3:(y * w + x) * 3 + 3])


signatures, extents = [], []
for (x, y, pw, ph) in panes(count, columns, rows - 1, aspect):
    x0, y0, pw, ph = x * cw, y * ch, pw * cw, ph * ch
    across = [red(x0 + i, y0 + ph // 2) for i in range(pw)]
    down = [green(x0 + pw // 2, y0 + j) for j in range(ph)]
    signatures.append((across, down))
    # Down the pane's middle, its colours in runs (each channel to a hex digit): a picture's stripes, or a band of it.
    colours = ["%x%x%x" % tuple(c >> 4 for c in pixel(x0 + pw // 2, y0 + j)) for j in range(ph)]
    bands = []
    for c in colours:
        if bands and bands[-1][0] == c:
            bands[-1][1] += 1
        else:
            bands.append([c, 1])
    extents.append(" ".join("%s*%d" % (c, n) for c, n in bands[:10]) + (" …" if len(bands) > 10 else ""))


def runs(bits):
    out, n = [], 1
    for a, b in zip(bits, bits[1:]):
        if a == b:
            n += 1
        else:
            out.append(n)
            n = 1
    return out[1:]  # the first run is cut by the pane's edge


def agree(a, b):
    return all(sum(p != q for p, q in zip(s, t)) <= 0.03 * len(s) for s, t in zip(a, b))


if mode == "same":
    inner = runs(signatures[0][0]) + runs(signatures[0][1])
    wide = sum(45 <= n <= 55 for n in inner)
    if all(agree(signatures[0], s) for s in signatures[1:]) and inner and wide >= 0.8 * len(inner):
        phase = signatures[0][0].index(not signatures[0][0][0]) if not all(signatures[0][0]) else -1
        print("ok", phase, signatures[0][1].index(not signatures[0][1][0]) if len(set(signatures[0][1])) > 1 else -1)
    else:
        # Where each pane's first stripe edge is, across and down: which pane is off, and by how much.
        edges = [[bits.index(not bits[0]) if len(set(bits)) > 1 else -1 for bits in s] for s in signatures]
        # And each pane's colours down its middle (a picture's stripes, or a band of one).
        print("panes differ or are not at 1:1: stripe runs %s, agree %s; each pane's runs across %s, down %s; first edges %s; colours down %s" % (
            inner[:8], [agree(signatures[0], s) for s in signatures[1:]], [runs(s[0])[:6] for s in signatures],
            [runs(s[1])[:6] for s in signatures], edges, extents))
else:
    if not agree(signatures[0], signatures[1]) and all(agree(signatures[1], s) for s in signatures[2:]):
        print("ok")
    else:
        print("the first pane did not move alone: %s" % [agree(signatures[0], s) for s in signatures[1:]])
