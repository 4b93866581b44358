#!/usr/bin/env python3
"""Where an interactive first screen's time goes: Lightbox opened on FOLDER in a 160x48
pseudo-terminal (half blocks), with a thumbnail cache of its own that starts empty each run
(`cold`) or filled by a run before (`warm`), read as fast as written; its `--stats` timeline
(from the start of main: the scan's first batch, the first paint, the first thumbnail, the screen
complete), then, timed here, from the launch (the fork that runs it) to the last byte before a
second of quiet (in a small folder, the frame that completes the screen; a large one's status line
goes on changing as the scan and the dates go on), medians of RUNS runs, in milliseconds: five
figures a set.
Usage: timeline.py LIGHTBOX FOLDER RUNS [cold|warm] [ARGS...] [--versus ARGS...]
With --versus, runs with the ARGS before it and with those after it alternate (so the machine's
drift falls on both alike) and both sets of medians are printed on one line."""
import os, re, shutil, sys, tempfile, time
sys.path.insert(0, os.path.dirname(__file__))
from wire import lightbox  # noqa: E402

binary, folder, runs = sys.argv[1], sys.argv[2], int(sys.argv[3])
state = sys.argv[4] if len(sys.argv) > 4 else "cold"
extra = sys.argv[5:]
configs = [extra[:extra.index("--versus")], extra[extra.index("--versus") + 1:]] if "--versus" in extra else [extra]
MARKS = ["scan's first batch", "first paint", "first thumbnail", "screen complete"]

LAUNCH = "from launch to the screen's last byte"

def once(cache, args):
    launched = time.time()
    link = lightbox(binary, "half", folder, None, cache, ["--stats", "--read-ahead", "off", *args])
    link.record = []
    link.pump(quiet=1.0)
    screen = (link.last_at - launched) * 1000 if link.last_at else None
    link.keys(b"q")
    link.pump(quiet=1.0)
    text = bytes(link.log).decode("utf-8", "replace")
    marks = {name: float(m.group(1)) for name in MARKS if (m := re.search(re.escape(name) + r" ([\d.]+) ms", text))}
    if screen is not None: marks[LAUNCH] = round(screen, 1)
    return marks

results = [[] for _ in configs]
for _ in range(runs):
    for args, kept in zip(configs, results):
        cache = tempfile.mkdtemp()
        try:
            if state == "warm": once(cache, args)
            kept.append(once(cache, args))
        finally:
            shutil.rmtree(cache, ignore_errors=True)

def medians(kept):
    values = {name: sorted(r[name] for r in kept if name in r) for name in MARKS + [LAUNCH]}
    return " ".join(f"{v[len(v) // 2] if v else -1}" for v in values.values())

print(" ".join(medians(kept) for kept in results))
