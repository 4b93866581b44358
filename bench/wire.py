#!/usr/bin/env python3
"""Bytes Lightbox writes to a 160x48 terminal of 10x20-pixel cells (a pseudo-terminal read as fast as
it writes): the first screen, then five PgDn 0.15 s apart, in each picture mode.
Usage: wire.py LIGHTBOX FOLDER MODE[,MODE...]"""
import fcntl, os, pty, select, struct, sys, termios, time, tempfile, shutil
def run(binary, mode, folder, keys=()):
    cache = tempfile.mkdtemp()
    pid, fd = pty.fork()
    if pid == 0:
        os.environ.update({"TERM": "xterm-256color", "COLORTERM": "truecolor", "XDG_CACHE_HOME": cache, "LANG": "C.UTF-8"})
        os.execv(binary, [binary, "--graphics", mode, "--no-disk-cache", folder])
    fcntl.ioctl(fd, termios.TIOCSWINSZ, struct.pack("HHHH", 48, 160, 1600, 960))
    total, start, last = 0, time.time(), time.time()
    def pump(quiet):
        nonlocal total, last
        while True:
            r, _, _ = select.select([fd], [], [], quiet)
            if not r: return
            try: data = os.read(fd, 65536)
            except OSError: return
            if not data: return
            total += len(data); last = time.time()
    pump(1.5)
    first = total
    for k in keys:
        os.write(fd, k); time.sleep(0.15); pump(0.01)
    pump(1.5)
    os.write(fd, b"q"); pump(0.5)
    os.waitpid(pid, 0); shutil.rmtree(cache)
    return first, total - first
binary, folder = sys.argv[1], sys.argv[2]
for mode in sys.argv[3].split(","):
    first, after = run(binary, mode, folder, keys=[b"\x1b[6~"] * 5)
    print(f"{mode}: first screen {first/1e6:.2f} MB, 5 x PgDn {after/1e6:.2f} MB")
