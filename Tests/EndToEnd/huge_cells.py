#!/usr/bin/env python3
"""Runs Lightbox in a pseudo-terminal whose window size reports 200x400-pixel cells (TIOCGWINSZ),
in kitty graphics, reads everything it writes, quits with q, and prints what --stats said.
Usage: huge_cells.py LIGHTBOX FOLDER"""
import os, pty, select, struct, sys, termios, fcntl, time

binary, folder = sys.argv[1], sys.argv[2]
pid, fd = pty.fork()
if pid == 0:
    os.environ.update(TERM='xterm-256color', LANG='C.UTF-8')
    os.execv(binary, [binary, '--graphics', 'kitty', '--stats', '--no-disk-cache', '--columns', '2', folder])
fcntl.ioctl(fd, termios.TIOCSWINSZ, struct.pack('HHHH', 48, 160, 160 * 200, 48 * 400))
tail, total = b'', 0

def drain(seconds):
    global tail, total
    end = time.time() + seconds
    while time.time() < end:
        ready, _, _ = select.select([fd], [], [], 0.1)
        if not ready:
            continue
        try:
            chunk = os.read(fd, 1 << 20)
        except OSError:
            return False
        if not chunk:
            return False
        total += len(chunk)
        tail = (tail + chunk)[-65536:]
    return True

drain(4)
os.write(fd, b'q')
drain(60)
_, status = os.waitpid(pid, 0)
text = tail.decode('utf-8', 'replace')
print('exit', os.waitstatus_to_exitcode(status), 'bytes', total, 'crashed' if 'crashed' in text else 'no-crash',
      ' '.join(line.strip() for line in text.splitlines() if line.strip().startswith(('JPEG DCT', 'libvips', 'failed'))))
