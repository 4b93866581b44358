#!/usr/bin/env python3
"""A key whose escape sequence arrives in pieces (an SSH link splits it) is one key, not Esc and
letters: Lightbox in a pseudo-terminal gets Right as ESC, a pause, then `[C`, and Enter must
print the second photo. Locally (the probe answered at once) the pause is 30 ms; over a slow
link (the probe answered after 150 ms) it is 200 ms. A lone Esc still quits promptly.
Prints a verdict line per check (ok/FAIL). Usage: split_keys.py LIGHTBOX FOLDER WORKDIR"""
import os, pty, select, signal, sys, time

binary, folder, work = sys.argv[1], sys.argv[2], sys.argv[3]
os.makedirs(work, exist_ok=True)

def verdict(ok, text):
    print(("ok - " if ok else "FAIL - ") + text, flush=True)

class Terminal:
    """Lightbox (half blocks, stdout to a file) in a pseudo-terminal that answers the probe
    after `delay` seconds, as a terminal at the end of such a link would."""
    def __init__(self, delay, out):
        self.delay, self.out, self.tail, self.answered = delay, out, b"", False
        self.pid, self.fd = pty.fork()
        if self.pid == 0:
            os.environ.update({"TERM": "xterm-256color", "LANG": "C.UTF-8", "XDG_CACHE_HOME": os.path.join(work, "split-cache")})
            os.environ.pop("ESCDELAY", None)
            os.execvp("sh", ["sh", "-c", 'exec "$0" --graphics half --sections none "$1" > "$2"', binary, folder, out])

    def read(self, seconds):
        end = time.time() + seconds
        while time.time() < end:
            r, _, _ = select.select([self.fd], [], [], 0.01)
            if not r: continue
            try: data = os.read(self.fd, 65536)
            except OSError: return
            if not data: return
            if not self.answered and b"\x1b[c" in self.tail + data:
                time.sleep(self.delay)
                os.write(self.fd, b"\x1b[?62;4;22c")
                self.answered = True
            self.tail = data[-8:]

    def ended(self, seconds):
        end = time.time() + seconds
        while True:
            pid, status = os.waitpid(self.pid, os.WNOHANG)
            if pid: return os.waitstatus_to_exitcode(status)
            if time.time() >= end: return None
            self.read(0.02)

    def kill(self):
        try: os.kill(self.pid, signal.SIGKILL); os.waitpid(self.pid, 0)
        except OSError: pass
        os.close(self.fd)

for name, delay, pause in [("locally", 0.0, 0.03), ("over a 150 ms link", 0.15, 0.2)]:
    out = os.path.join(work, "split-out")
    terminal = Terminal(delay, out)
    terminal.read(1.5)
    os.write(terminal.fd, b"\x1b")
    terminal.read(pause)
    os.write(terminal.fd, b"[C")
    terminal.read(0.6)
    early = terminal.ended(0)
    alive = early is None
    if alive: os.write(terminal.fd, b"\r")
    code = terminal.ended(3) if alive else early
    picked = open(out, "rb").read().strip() if os.path.exists(out) else b""
    verdict(alive and code == 0 and picked.endswith(b"IMG_2.jpg"),
            f"{name}: Right split {int(pause * 1000)} ms after its Esc moved one photo (still running: {alive}, exit {code}, picked {picked[-30:]!r})")
    if code is None: terminal.kill()
    else: os.close(terminal.fd)

# A lone Esc is still Esc: it quits, at once.
terminal = Terminal(0.0, os.path.join(work, "split-out"))
terminal.read(1.5)
start = time.time()
os.write(terminal.fd, b"\x1b")
code = terminal.ended(3)
took = time.time() - start
verdict(code == 130 and took < 0.5, f"a lone Esc quits: exit {code} after {took:.2f} s")
if code is None: terminal.kill()
else: os.close(terminal.fd)
