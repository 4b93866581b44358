#!/usr/bin/env python3
"""Where an interactive first screen's time goes: Lightbox opened on FOLDER in a 160x48
pseudo-terminal (half blocks), with a thumbnail cache of its own that starts empty each run
(`cold`) or filled by a run before (`warm`), read as fast as written; its `--stats` timeline
(from launch: the scan's first batch, the first paint, the first thumbnail, the screen complete),
medians of RUNS runs, in milliseconds. Usage: timeline.py LIGHTBOX FOLDER RUNS [cold|warm] [ARGS...]"""
import os, re, shutil, sys, tempfile
sys.path.insert(0, os.path.dirname(__file__))
from wire import lightbox  # noqa: E402

binary, folder, runs = sys.argv[1], sys.argv[2], int(sys.argv[3])
state = sys.argv[4] if len(sys.argv) > 4 else "cold"
extra = sys.argv[5:]
MARKS = ["scan's first batch", "first paint", "first thumbnail", "screen complete"]

def once(cache):
    link = lightbox(binary, "half", folder, None, cache, ["--stats", "--read-ahead", "off", *extra])
    link.record = []
    link.pump(quiet=1.0)
    link.keys(b"q")
    link.pump(quiet=1.0)
    text = bytes(link.log).decode("utf-8", "replace")
    return {name: float(m.group(1)) for name in MARKS if (m := re.search(re.escape(name) + r" ([\d.]+) ms", text))}

results = []
for _ in range(runs):
    cache = tempfile.mkdtemp()
    try:
        if state == "warm": once(cache)
        results.append(once(cache))
    finally:
        shutil.rmtree(cache, ignore_errors=True)
medians = {}
for name in MARKS:
    values = sorted(r[name] for r in results if name in r)
    if values: medians[name] = values[len(values) // 2]
print(" ".join(f"{medians.get(name, -1)}" for name in MARKS))
