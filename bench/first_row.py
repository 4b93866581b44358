#!/usr/bin/env python3
"""When timg's first row of pictures is on screen: `timg --grid=6x4 -g160x48 -ph --threads=2` on
FOLDER's files in a 160x48 pseudo-terminal read as fast as written, timed from its start to the
end of its grid's first row (the first 12 of its 48 lines: a row of tiles), median of RUNS runs,
in milliseconds. Beside Lightbox's first thumbnail (its --stats timeline). Usage: first_row.py FOLDER RUNS"""
import glob, os, sys, time
sys.path.insert(0, os.path.dirname(__file__))
from wire import Link  # noqa: E402

folder, runs = sys.argv[1], int(sys.argv[2])
files = sorted(glob.glob(os.path.join(folder, "*")))
ROW_LINES = 48 // 4

def once():
    start = time.time()
    link = Link(["timg", "--grid=6x4", "-g160x48", "-ph", "--threads=2", *files], {"TERM": "xterm-256color", "LANG": "C.UTF-8"}, None)
    link.record = []
    seen = None
    while seen is None and time.time() - start < 30:
        link.pump(seconds=0.001)
        if bytes(link.log).count(b"\n") >= ROW_LINES: seen = (time.time() - start) * 1000
    link.pump(quiet=0.5)
    try: os.waitpid(link.pid, 0)
    except ChildProcessError: pass
    return seen

times = sorted(t for t in (once() for _ in range(runs)) if t is not None)
print(f"{times[len(times) // 2]:.0f}" if times else "-1")
