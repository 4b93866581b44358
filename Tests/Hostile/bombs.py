#!/usr/bin/env python3
"""Decoder bombs past the declared-size check, each shown by Lightbox (--snapshot, default
settings unless said) within 10 s with every decoder process under 512 MB, as a tile with a
reason or the picture it may show:
- an MJPEG AVI declared 64x64 whose later frames are 4000x3000, under --max-megapixels 1;
- an MP4 whose sample table claims 60 million samples in a few kilobytes;
- a JPEG XL of 7000x7000 (49 MP, under the 100 MP limit) whose decoder would need about 780 MB;
- a GIF whose screen is 8000x8000 and whose one frame is a pixel.
And what is large but legitimate, shown as a picture, bounded the same way: a 10,000-frame GIF, a
10-hour video with one keyframe (at its start), an 8K HEVC frame.
Prints a verdict line per check (ok/FAIL). Usage: bombs.py LIGHTBOX WORKDIR"""
import os, re, resource, shutil, subprocess, sys, time

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

def show(path, *extra):
    """Lightbox's snapshot of `path` in its own process tree: (seconds, peak MB of any process
    in it, the snapshot's text without colours, its raw bytes)."""
    probe = ("import resource, subprocess, sys, time\n"
             "start = time.time()\n"
             "out = subprocess.run(sys.argv[1:], stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, timeout=30).stdout\n"
             "sys.stdout.buffer.write(b'%.2f %d\\n' % (time.time() - start, resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss // 1024))\n"
             "sys.stdout.buffer.write(out)\n")
    run = subprocess.run([sys.executable, "-c", probe, binary, "--snapshot", "40x12", "--no-disk-cache", *extra, path],
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

for path, label, mark in [(many, "a 10,000-frame GIF", "×10000"), (hours, "a 10-hour video with one keyframe", "10:00:00"), (eight, "an 8K HEVC frame", "▶")]:
    seconds, peak, text, _ = show(path)
    verdict(bounded(seconds, peak) and mark in text and "✗" not in text, f"{label}: shown ({seconds} s, {peak} MB)")
