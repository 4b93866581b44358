#!/usr/bin/env python3
"""A terminal that stops reading (XOFF, a frozen SSH link, a suspended emulator) must not keep
Lightbox alive. In a pseudo-terminal read at 20 KB/s for a while, then not at all, with pages
still typed so the output piles up: `q` ends it, and so do SIGTERM and SIGHUP within a second;
its memory stays bounded meanwhile. Each picture mode in turn.
Prints a verdict line per check (ok/FAIL). Usage: stalled_terminal.py LIGHTBOX FOLDER WORKDIR"""
import os, signal, sys, time

sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", "..", "bench"))
from wire import lightbox  # noqa: E402

binary, folder, work = sys.argv[1], sys.argv[2], sys.argv[3]
RATE = 20 * 1000

def verdict(ok, text):
    print(("ok - " if ok else "FAIL - ") + text, flush=True)

def rss_kb(pid):
    try:
        with open(f"/proc/{pid}/status") as status:
            for line in status:
                if line.startswith("VmRSS:"): return int(line.split()[1])
    except OSError:
        pass
    return 0

def ended_within(link, seconds):
    """Waits up to `seconds` for the child to end without reading its output; its time or None."""
    start = time.time()
    while time.time() - start < seconds:
        pid, status = os.waitpid(link.pid, os.WNOHANG)
        if pid:
            link.ended = True
            return time.time() - start
        time.sleep(0.01)
    return None

def stalled(mode, ending):
    """Lightbox in `mode` read at 20 KB/s for 2 s of paging, then never read again while more
    pages are typed; then `ending` (b"q" or a signal). Returns (seconds to end or None, RSS kB
    when the stall began, RSS kB after the pages typed into it)."""
    link = lightbox(binary, mode, folder, RATE, os.path.join(work, "stalled-cache"), ["--sections", "none"], size=(40, 120))
    link.ended = False
    try:
        link.pump(seconds=1.0)
        for _ in range(4):
            link.keys(b"\x1b[6~")
            link.pump(seconds=0.25)
        # From here on nothing is read: the kernel's buffer fills and stays full.
        before = rss_kb(link.app)
        for i in range(40):
            link.keys(b"\x1b[6~" if i % 2 == 0 else b"\x1b[5~")
            time.sleep(0.05)
        time.sleep(0.5)
        during = rss_kb(link.app)
        if ending == b"q":
            link.keys(b"q")
        else:
            os.kill(link.pid, ending)
        return ended_within(link, 3.0), before, during
    finally:
        if not link.ended:
            try: os.kill(link.pid, signal.SIGKILL)
            except OSError: pass
            os.waitpid(link.pid, 0)
        os.close(link.fd)

for mode in ["half", "kitty", "sixel"]:
    for ending, name, limit in [(b"q", "q", 1.5), (signal.SIGTERM, "SIGTERM", 1.0), (signal.SIGHUP, "SIGHUP", 1.0)]:
        took, before, during = stalled(mode, ending)
        ok = took is not None and took <= limit
        verdict(ok, f"{mode}: {name} with a terminal that stopped reading: " + (f"ended in {took:.2f} s" if took is not None else "still running after 3 s"))
        if name == "q":
            # Forty pages typed into the stall: what waits is one frame, not forty.
            verdict(0 < during < before + 16 * 1024, f"{mode}: memory while stalled {during} kB against {before} kB when it began")
