#!/usr/bin/env python3
"""Lightbox in kitty graphics through a pseudo-terminal read at 2,000 kbit/s (bench/wire.py's
Link): five PgDn 0.15 s apart, then, in a second run, q while pictures stream. Each photo's
top-left corner is a colour that names it, read back from the PNG each transmission carries.
Prints what was sent and a verdict line per check (ok/FAIL). Usage: slow_link.py LIGHTBOX WORKDIR"""
import os, random, re, subprocess, sys, time, zlib

sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", "..", "bench"))
from wire import lightbox  # noqa: E402

binary, work = sys.argv[1], sys.argv[2]
folder, cache = os.path.join(work, "slow"), os.path.join(work, "slow-cache")
COUNT, RATE = 64, 2000 * 1000 / 8

def colour(i):
    return ((i % 8) * 32 + 16, (i // 8) * 32 + 16, 0)

os.makedirs(folder, exist_ok=True)
for i in range(COUNT):
    # Noise, so each picture is tens of kilobytes; a corner of the colour naming it.
    width, height, corner = 480, 320, 80
    pixels = bytearray(random.Random(i).randbytes(width * height * 3))
    for y in range(corner):
        pixels[y * width * 3:(y * width + corner) * 3] = bytes(colour(i)) * corner
    ppm = os.path.join(folder, f"f{i:02}.ppm")
    with open(ppm, "wb") as f:
        f.write(b"P6 %d %d 255\n" % (width, height) + pixels)
    with open(ppm[:-3] + "jpg", "wb") as jpeg:
        subprocess.run(["cjpeg", "-quality", "90", ppm], stdout=jpeg, check=True)
    os.remove(ppm)

def run(keys):
    """Runs Lightbox at the link's rate, sends `keys` (bytes, pause after) and returns its output
    with the times each part was read and when the last key went."""
    link = lightbox(binary, "kitty", folder, RATE, cache, ["--link-speed", "100000", "--sections", "none"], size=(24, 80))
    link.record = []
    link.pump(quiet=0.8)
    first = len(link.log)
    last_key = time.time()
    for data, pause in keys:
        link.keys(data)
        last_key = time.time()
        link.pump(seconds=pause)
    mark = len(link.log)
    status = link.pump(quiet=1.0, seconds=30)
    try:
        _, code = os.waitpid(link.pid, os.WNOHANG)
    except ChildProcessError:
        code = 0
    if code == 0 and status != "closed":
        link.close()
    return bytes(link.log), first, mark

COMMAND = re.compile(rb"\x1b_G([^;\x1b]*)(?:;([^\x1b]*))?\x1b\\")

def transmissions(log):
    """(start offset, image index, complete) of each kitty transmission, and problems found:
    a graphics command inside a transmission, one left open at the end."""
    found, problems, current = [], [], None
    for match in COMMAND.finditer(log):
        control = dict(part.split(b"=", 1) for part in match.group(1).split(b",") if b"=" in part)
        payload = match.group(2) or b""
        if current is not None and b"a" in control:
            problems.append(f"a command ({match.group(1)[:20]}) inside the transmission of image {current['id']}")
            current = None
        if control.get(b"a") == b"T":
            current = {"start": match.start(), "id": control[b"i"], "data": payload}
        elif current is not None:
            current["data"] += payload
        else:
            continue
        if control.get(b"m", b"0") == b"0":
            found.append((current["start"], index_of(current["data"]), True))
            current = None
    if current is not None:
        found.append((current["start"], None, False))
        problems.append(f"image {current['id']} left half-sent")
    return found, problems

def index_of(data):
    """The photo a PNG shows, from its top-left pixel's colour."""
    import base64
    png = base64.b64decode(data)
    pos, idat, width = 8, b"", 0
    while pos < len(png):
        length = int.from_bytes(png[pos:pos + 4], "big"); kind = png[pos + 4:pos + 8]
        body = png[pos + 8:pos + 8 + length]
        if kind == b"IHDR": width = int.from_bytes(body[:4], "big")
        if kind == b"IDAT": idat += body
        pos += 12 + length
    row = zlib.decompress(idat)[1:4]  # the first row's filter (Up: raw on the first row), then RGB
    r, g = row[0], row[1]
    return round((r - 16) / 32) + 8 * round((g - 16) / 32)

def verdict(ok, text):
    print(("ok - " if ok else "FAIL - ") + text)

# 1. Five pages down, 0.15 s apart, then quiet.
log, first, mark = run([(b"\x1b[6~", 0.15)] * 5)
sent, problems = transmissions(log)
before = {i for start, i, _ in sent if start < first}
after = {i for start, i, _ in sent if start >= first}
# The page stopped on: the run of consecutive photos ending at the last one sent.
last_page = set()
if after:
    i = max(after)
    while i in after:
        last_page.add(i); i -= 1
passed = sorted(after - last_page - before)
print(f"first screen: {sorted(before)}; while paging: {passed}; the page stopped on: {sorted(last_page)}")
verdict(len(before) >= 6 and before == set(range(min(before), max(before) + 1)), f"the first screen's {len(before)} pictures sent")
verdict(len(last_page) >= 6 and min(last_page) > max(before) + 4 * 4 and all(done for _, _, done in sent),
        f"the page stopped on ({len(last_page)} pictures) sent whole, well past the first")
# Pages passed: at most the picture begun when each key came (it is finished, not cut).
verdict(len(passed) <= 5, f"pictures of the pages passed: {len(passed)} sent of the ~{4 * len(before)} there (at most one begun a key)")
verdict(not problems, "no command inside a kitty transmission, none left half-sent" + (": " + "; ".join(problems) if problems else ""))

# 2. q while pictures stream: the begun one is finished before the deletes.
log, first, mark = run([(b"\x1b[6~", 0.1), (b"\x1b[6~", 0.25), (b"q", 0.0)])
sent, problems = transmissions(log)
deletes = log.count(b"a=d,d=I")
# What was read after q: at most what the kernel held then (a picture or two), never the rest.
after_q = sum(1 for start, _, _ in sent if start >= mark)
verdict(not problems and deletes > 0 and after_q <= 2, f"q while pictures stream: every transmission whole, {after_q} begun after q, then {deletes} deletes"
        + (": " + "; ".join(problems) if problems else ""))
