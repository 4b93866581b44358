#!/usr/bin/env python3
"""Decoder bombs past the declared-size check, each shown by Lightbox (--snapshot, default
settings unless said) within 10 s with every decoder process under 512 MB, as a tile with a
reason or the picture it may show:
- an MJPEG AVI declared 64x64 whose later frames are 4000x3000, under --max-megapixels 1;
- an MP4 whose sample table claims 60 million samples in a few kilobytes;
- a JPEG XL of 7000x7000 (49 MP, under the 100 MP limit) whose decoder would need about 780 MB;
- a GIF whose screen is 8000x8000 and whose one frame is a pixel.
- JPEG 2000s whose headers claim 7000x7000 in a few hundred bytes, or whose codestream says
  7000x7000 under a box that says 64x64;
- preview-less DNGs claiming a 60000x60000 sensor, a 9000x9000 one with no data, and a real
  9000x9000 one (162 MB) whose development would need more than a decoder has.
And what is large but legitimate, shown as a picture, bounded the same way: a 10,000-frame GIF, a
10-hour video with one keyframe (at its start), a video whose only keyframe is at its end, an 8K
HEVC frame, an 8K AV1 frame, a 4000x4000 JPEG 2000.
Then, interactively (tmux): a 100 MP RGBA APNG in the grid and the preview (shown as a still: its
canvas would not fit a decoder), and the grid's decoders stopped with SIGSTOP while they decode a
screen (the tiles they held say they timed out, the others are shown).
Prints a verdict line per check (ok/FAIL). Usage: bombs.py LIGHTBOX WORKDIR"""
import os, re, resource, shutil, signal, struct, subprocess, sys, time, zlib

binary, work = sys.argv[1], os.path.join(sys.argv[2], "bombs")
os.makedirs(work, exist_ok=True)

def ffmpeg(*arguments):
    subprocess.run(["ffmpeg", "-nostdin", "-y", "-loglevel", "error", *arguments], check=True)

def verdict(ok, text):
    print(("ok - " if ok else "FAIL - ") + text, flush=True)

# The growing MJPEG: a red 64x64 first frame, then 4000x3000 ones of a test pattern (more detail,
# so they are what a thumbnail would show), copied into AVI as they are.
frames = os.path.join(work, "frames")
os.makedirs(frames, exist_ok=True)
ffmpeg("-f", "lavfi", "-i", "color=c=red:s=64x64", "-frames:v", "1", "-q:v", "5", os.path.join(frames, "f000.jpg"))
ffmpeg("-f", "lavfi", "-i", "testsrc2=s=4000x3000", "-frames:v", "1", "-q:v", "5", os.path.join(frames, "big.jpg"))
for i in range(1, 21):
    shutil.copy(os.path.join(frames, "big.jpg"), os.path.join(frames, f"f{i:03}.jpg"))
growing = os.path.join(work, "growing.avi")
ffmpeg("-framerate", "5", "-i", os.path.join(frames, "f%03d.jpg"), "-c:v", "copy", growing)

claims = os.path.join(work, "claims.mp4")
ffmpeg("-f", "lavfi", "-i", "testsrc2=s=64x48:r=5:d=1", "-c:v", "mpeg4", claims)
data = bytearray(open(claims, "rb").read())
stts = data.find(b"stts")
data[stts + 12:stts + 16] = (60_000_000).to_bytes(4, "big")  # the first run's sample count
open(claims, "wb").write(data)

jxl = os.path.join(work, "bomb.jxl")
ffmpeg("-f", "lavfi", "-i", "color=c=red:s=7000x7000", "-frames:v", "1", "-c:v", "libjxl", "-effort", "1", "-distance", "5", jxl)

gif = os.path.join(work, "screen.gif")
with open(gif, "wb") as f:
    le16 = lambda v: v.to_bytes(2, "little")
    f.write(b"GIF89a" + le16(8000) + le16(8000) + bytes([0x80, 0, 0, 0, 0, 0, 255, 255, 255])
            + b"\x2c" + le16(0) + le16(0) + le16(1) + le16(1) + bytes([0, 2, 2, 0x4C, 0x01, 0, 0x3B]))

many = os.path.join(work, "many-frames.gif")
ffmpeg("-f", "lavfi", "-i", "testsrc2=s=16x16:r=100:d=100", many)
hours = os.path.join(work, "ten-hours.mp4")
ffmpeg("-f", "lavfi", "-i", "testsrc2=s=32x24:r=1:d=36000", "-c:v", "libx264", "-x264-params", "keyint=1000000:scenecut=0", "-pix_fmt", "yuv420p", hours)
eight = os.path.join(work, "eight-k.mp4")
ffmpeg("-f", "lavfi", "-i", "testsrc2=s=7680x4320", "-frames:v", "1", "-c:v", "libx265", "-pix_fmt", "yuv420p", "-x265-params", "log-level=none", eight)

# An 8K AV1 frame; a video whose first frame is not a keyframe and whose only keyframe is at 19.4 s
# (its first IDR cut out of the stream).
av1 = os.path.join(work, "eight-k-av1.mp4")
subprocess.run(["ffmpeg", "-nostdin", "-y", "-loglevel", "error", "-f", "lavfi", "-i", "testsrc2=s=7680x4320", "-frames:v", "1",
                "-c:v", "libsvtav1", "-preset", "12", "-pix_fmt", "yuv420p", av1], check=True, stderr=subprocess.DEVNULL)  # SVT-AV1 logs at any level
stream = os.path.join(work, "late.h264")
ffmpeg("-f", "lavfi", "-i", "testsrc2=s=320x240:r=25:d=20", "-c:v", "libx264", "-x264-params", "keyint=100000:scenecut=0:log-level=none",
       "-force_key_frames", "19.4", "-pix_fmt", "yuv420p", "-f", "h264", stream)
annexB = open(stream, "rb").read()
starts = [m.start() for m in re.finditer(b"\x00\x00\x01", annexB)] + [len(annexB)]
units = [annexB[a:b] for a, b in zip(starts, starts[1:])]
first = next(k for k, unit in enumerate(units) if unit[3] & 0x1F == 5)
open(stream, "wb").write(b"".join(b"\x00" + unit for k, unit in enumerate(units) if k != first))
late = os.path.join(work, "late-keyframe.mp4")
ffmpeg("-r", "25", "-i", stream, "-c", "copy", late)

# JPEG 2000: a 64x64 file whose ihdr box and SIZ marker are patched to say 7000x7000; a 64x64 one
# whose SIZ says 7000x7000 under its box's 64x64; a real 7000x7000 codestream under a 64x64 box.
def jp2(name, size, box=None, siz=None):
    path = os.path.join(work, name)
    ffmpeg("-f", "lavfi", "-i", f"color=c=red:s={size}", "-frames:v", "1", "-c:v", "libopenjpeg", path)
    data = bytearray(open(path, "rb").read())
    ihdr, marker = data.find(b"ihdr"), data.find(b"\xff\x4f\xff\x51")
    if box: data[ihdr + 4:ihdr + 12] = struct.pack(">II", *box)
    if siz: data[marker + 8:marker + 16] = data[marker + 24:marker + 32] = struct.pack(">II", *siz)
    open(path, "wb").write(data)
    return path
jp2_claims = jp2("claims.jp2", "64x64", box=(7000, 7000), siz=(7000, 7000))
jp2_codestream = jp2("codestream.jp2", "64x64", siz=(7000, 7000))
jp2_box = jp2("box.jp2", "7000x7000", box=(64, 64))
jp2_real = os.path.join(work, "real.jp2")
ffmpeg("-f", "lavfi", "-i", "testsrc2=s=4000x4000", "-frames:v", "1", "-c:v", "libopenjpeg", jp2_real)

def dng(name, width, height, data_bytes):
    """A DNG with one CFA image of `width` x `height` 16-bit samples, `data_bytes` of them present, no preview."""
    tags = [(254, 4, 0), (256, 4, width), (257, 4, height), (258, 3, 16), (259, 3, 1), (262, 3, 32803),
            (271, 2, struct.unpack("<I", b"Tst\x00")[0]), (273, 4, 8 + 2 + 14 * 12 + 4), (277, 3, 1), (278, 4, height),
            (279, 4, min(width * height * 2, 0xFFFFFFFF)), (33421, 3, 2 | 2 << 16), (33422, 1, 0x02010100), (50706, 1, 0x00000401)]
    counts = {271: 4, 33421: 2, 33422: 4, 50706: 4}
    ifd = struct.pack("<H", len(tags)) + b"".join(
        struct.pack("<HHI", tag, kind, counts.get(tag, 1)) + (struct.pack("<HH", value, 0) if kind == 3 and tag not in counts else struct.pack("<I", value))
        for tag, kind, value in tags) + struct.pack("<I", 0)
    path = os.path.join(work, name)
    with open(path, "wb") as f:
        f.write(b"II*\x00" + struct.pack("<I", 8) + ifd)
        f.truncate(f.tell() + data_bytes)  # zeros: a black sensor
    return path
raw_huge = dng("huge-sensor.dng", 60000, 60000, 4096)
raw_empty = dng("empty-sensor.dng", 9000, 9000, 4096)
raw_full = dng("full-sensor.dng", 9000, 9000, 9000 * 9000 * 2)

def show(path, *extra):
    """Lightbox's snapshot of `path` in its own process tree: (seconds, peak MB of any process
    in it, the snapshot's text without colours, its raw bytes)."""
    probe = ("import resource, subprocess, sys, time\n"
             "start = time.time()\n"
             "out = subprocess.run(sys.argv[1:], stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, timeout=30).stdout\n"
             "sys.stdout.buffer.write(b'%.2f %d\\n' % (time.time() - start, resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss // 1024))\n"
             "sys.stdout.buffer.write(out)\n")
    run = subprocess.run([sys.executable, "-c", probe, binary, "--snapshot", "100x12", "--no-disk-cache", *extra, path],
                         stdout=subprocess.PIPE, timeout=60)
    head, _, out = run.stdout.partition(b"\n")
    seconds, peak = head.split()
    return float(seconds), int(peak), re.sub(rb"\x1b\[[0-9;]*m", b"", out).decode(errors="replace"), out

def bounded(seconds, peak):
    return seconds < 10 and peak < 512

seconds, peak, text, raw = show(growing, "--max-megapixels", "1")
# The tile's colours: the red frame's only (or a broken tile's), none of the pattern's.
colours = {tuple(map(int, c)) for c in re.findall(rb"48;2;(\d+);(\d+);(\d+)m", raw)}
pattern = {c for c in colours if max(c) - min(c) > 60 and not (c[0] > 200 and c[1] < 60 and c[2] < 60) and c != (55, 65, 90)}
verdict(bounded(seconds, peak) and not pattern,
        f"a 64x64 MJPEG whose frames grow to 4000x3000, at 1 MP: no frame over the limit shown ({seconds} s, {peak} MB{', pattern colours ' + str(sorted(pattern)[:3]) if pattern else ''})")

seconds, peak, text, _ = show(claims)
verdict(bounded(seconds, peak) and "its sample" in text,
        f"an MP4 claiming 60 million samples: refused before FFmpeg builds its index ({seconds} s, {peak} MB): {text.splitlines()[-1].strip()}")

seconds, peak, text, _ = show(jxl)
verdict(bounded(seconds, peak) and "MB)" in text.splitlines()[-1],
        f"a 49 MP JPEG XL: refused for the memory its decoder would need ({seconds} s, {peak} MB): {text.splitlines()[-1].strip()}")

seconds, peak, text, _ = show(gif)
verdict(bounded(seconds, peak) and "MB)" in text.splitlines()[-1],
        f"a GIF of an 8000x8000 screen: refused for the memory ({seconds} s, {peak} MB): {text.splitlines()[-1].strip()}")

for path, label, reason in [
    (jp2_claims, "a 263-byte JPEG 2000 claiming 7000x7000", "MB)"),
    (jp2_codestream, "a JPEG 2000 whose codestream says 7000x7000 under a 64x64 box", "7000"),
    (jp2_box, "a 7000x7000 JPEG 2000 codestream under a 64x64 box", "7000"),
    (raw_huge, "a preview-less DNG claiming a 60000x60000 sensor", "too large"),
    (raw_empty, "a preview-less DNG claiming 9000x9000 with no sensor data", "sensor data"),
    (raw_full, "a preview-less 9000x9000 DNG (162 MB)", "to develop"),
]:
    seconds, peak, text, _ = show(path)
    verdict(bounded(seconds, peak) and reason in text.splitlines()[-1],
            f"{label}: refused ({seconds} s, {peak} MB): {text.splitlines()[-1].strip()}")

for path, label, mark in [(many, "a 10,000-frame GIF", "×10000"), (hours, "a 10-hour video with one keyframe", "10:00:00"),
                          (late, "a video whose only keyframe is at its end", "▶"), (eight, "an 8K HEVC frame", "▶"),
                          (av1, "an 8K AV1 frame", "▶"), (jp2_real, "a 4000x4000 JPEG 2000", "real.jp2")]:
    seconds, peak, text, _ = show(path)
    verdict(bounded(seconds, peak) and mark in text and "✗" not in text, f"{label}: shown ({seconds} s, {peak} MB)")

# Interactively, in a tmux of its own: the screen, and the decoders' memory sampled as it runs.
socket = f"lightbox-bombs-{os.getpid()}"
def tmux(*arguments):
    return subprocess.run(["tmux", "-L", socket, *arguments], capture_output=True, text=True).stdout
def decoders():
    """This run's decoder processes (they inherit its marker) and their resident MB."""
    found = {}
    for pid in subprocess.run(["pgrep", "-x", "lightbox-decode"], capture_output=True, text=True).stdout.split():
        try:
            if f"LIGHTBOX_BOMBS={socket}".encode() in open(f"/proc/{pid}/environ", "rb").read().split(b"\0"):
                found[int(pid)] = int(re.search(r"VmRSS:\s+(\d+)", open(f"/proc/{pid}/status").read()).group(1)) // 1024
        except (OSError, AttributeError):
            pass
    return found
def open_pane(folder, *extra, errors="/dev/null"):
    tmux("kill-server")
    command = " ".join([binary, "--no-disk-cache", *extra, folder, "2>" + errors])
    tmux("-f", "/dev/null", "new-session", "-d", "-x", "120", "-y", "40",
         f"env LIGHTBOX_BOMBS={socket} LANG=C.UTF-8 TERM=tmux-256color {command}; sleep 60")
def watch(seconds, until=None):
    """The screen after `seconds` (or once `until` is on it), and the decoders' peak MB meanwhile."""
    peak, end = 0, time.time() + seconds
    while time.time() < end:
        peak = max([peak, *decoders().values()])
        if until and until in tmux("capture-pane", "-p"):
            break
        time.sleep(0.05)
    return tmux("capture-pane", "-p"), peak

# A 100 MP RGBA APNG of two frames (one frame's data twice; zlib level 1: generated in seconds).
apng_folder = os.path.join(work, "apng")
os.makedirs(apng_folder, exist_ok=True)
def chunk(kind, body):
    return struct.pack(">I", len(body)) + kind + body + struct.pack(">I", zlib.crc32(kind + body))
side = 10000
packer, row = zlib.compressobj(1), b"\x00" + b"\xff\x00\x00\xff" * side
pixels = b"".join(packer.compress(row) for _ in range(side)) + packer.flush()
control = lambda n: chunk(b"fcTL", struct.pack(">IIIIIHHBB", n, side, side, 0, 0, 1, 2, 0, 0))
with open(os.path.join(apng_folder, "huge.png"), "wb") as f:
    f.write(b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", struct.pack(">IIBBBBB", side, side, 8, 6, 0, 0, 0)) + chunk(b"acTL", struct.pack(">II", 2, 0))
            + control(0) + chunk(b"IDAT", pixels) + control(1) + chunk(b"fdAT", struct.pack(">I", 2) + pixels) + chunk(b"IEND", b""))
open_pane(apng_folder, "--read-ahead", "off")
grid, grid_peak = watch(8)
tmux("send-keys", "o")
watch(6)
tmux("send-keys", "p")
preview, preview_peak = watch(1)
tmux("kill-server")
verdict("✗" not in grid and "shown as a still" in preview and max(grid_peak, preview_peak) < 512,
        f"a 100 MP RGBA APNG: a still in the grid and the preview, decoders at most {max(grid_peak, preview_peak)} MB: "
        + (preview.strip().splitlines() or [""])[-1].strip()[:70])

# The grid's decoders stopped while they decode a screen of 12 large PNGs: each tile one held says
# it timed out, and every other tile is shown.
stopped_folder = os.path.join(work, "stopped")
os.makedirs(stopped_folder, exist_ok=True)
ffmpeg("-f", "lavfi", "-i", "testsrc2=s=4000x3000", "-frames:v", "1", os.path.join(stopped_folder, "pattern.png"))
for i in range(12):
    shutil.copy(os.path.join(stopped_folder, "pattern.png"), os.path.join(stopped_folder, f"p{i:02}.png"))
os.remove(os.path.join(stopped_folder, "pattern.png"))
stats = os.path.join(work, "stopped-stats")
open_pane(stopped_folder, "--read-ahead", "off", "--stats", errors=stats)
stopped, start = [], time.time()
while not stopped and time.time() - start < 5:
    stopped = list(decoders())
    time.sleep(0.01)
# Stopped once they have taken their files (the first seen may be the factory that forks them,
# or a worker not given one yet: stopped then, no tile would wait for it).
time.sleep(0.3)
stopped = list(decoders()) or stopped
for pid in stopped:
    os.kill(pid, signal.SIGSTOP)
screen, _ = watch(12)
tiles = "\n".join(screen.splitlines()[:-1])  # not the status line, which says the cursor's
reasons = []
for _ in range(12):  # the status line says what the cursor's tile is
    reasons.append(tmux("capture-pane", "-p").strip().splitlines()[-1])
    tmux("send-keys", "l")
    time.sleep(0.15)
tmux("send-keys", "q")
time.sleep(1)
tmux("kill-server")
counted = dict(re.findall(r"^  (libvips|failed): (\d+)$", open(stats).read(), re.M))
for pid in stopped:
    try:
        os.kill(pid, signal.SIGKILL)
    except OSError:
        pass
timed_out = [line for line in reasons if "timed out" in line]
shown = int(counted.get("libvips", -1))
verdict(stopped and 1 <= len(timed_out) <= len(stopped) and tiles.count("✗") == len(timed_out) and shown == 12 - len(timed_out),
        f"{len(stopped)} decoders stopped mid-screen: {len(timed_out)} tiles say \"{timed_out[0][6:].strip()[:30] if timed_out else ''}\", "
        f"{shown} of 12 decoded")
