#!/usr/bin/env python3
"""timg playing a video into a 160x48 pty of 10x20-pixel cells, read as fast as it comes:
frames a second it shows over SECONDS (pictures started in its output), and MB a second.
usage: timg_video.py VIDEO MODE SECONDS  (MODE: kitty or iterm2: Debian's timg has no sixel)"""
import fcntl, os, pty, struct, sys, termios, time

video, mode, seconds = sys.argv[1], sys.argv[2], float(sys.argv[3])
# A picture's first chunk: kitty's continuation chunks carry only m=.
marks = {"kitty": b"\x1b_Ga=", "iterm2": b"\x1b]1337;File="}
pid, fd = pty.fork()
if pid == 0:
    os.environ["TERM"] = "xterm-256color"
    os.execvp("timg", ["timg", "-V", "-p" + mode[0], "-g160x47", "--loops=1", "-t%g" % seconds, video])
fcntl.ioctl(fd, termios.TIOCSWINSZ, struct.pack("HHHH", 48, 160, 960, 1600))
start = time.monotonic()
first = None
count = 0
total = 0
tail = b""
while True:
    try:
        data = os.read(fd, 1 << 20)
    except OSError:
        break
    if not data:
        break
    total += len(data)
    found = (tail + data).count(marks[mode])
    if found and first is None:
        first = time.monotonic()
    count += found
    tail = data[-16:]
os.waitpid(pid, 0)
end = time.monotonic()
if first is None:
    print("timg %s: no picture" % mode)
else:
    wall = end - first
    print("timg -V -p%s (the same video, pty and cells): first frame %.0f ms after start; %.1f frames a second over %.1f s; %.1f MB a second written"
          % (mode[0], (first - start) * 1000, (count - 1) / wall, wall, total / wall / 1e6))
