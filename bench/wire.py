#!/usr/bin/env python3
"""What Lightbox writes to a terminal over a link: a 160x48 pseudo-terminal of 10x20-pixel cells
read at RATE kbit/s (or as fast as written). For each picture mode: the first screen's bytes and
the time until quiet; five PgDn 0.15 s apart, their bytes and the time from the last until quiet;
and, in a run of its own, how long the cells of a key (`i`, the info panel) take to arrive while
the first screen's pictures stream. Beside it, timg --grid in the same mode on the same files.
Usage: wire.py LIGHTBOX FOLDER MODE[,MODE...] [RATE-KBIT]
       wire.py LIGHTBOX FOLDER scroll MODE[,MODE...]   (bytes a line scrolled by the wheel)
       wire.py LIGHTBOX[,LIGHTBOX...] FOLDER keys MODE[,MODE...]   (key-to-frame on a fast link)
       wire.py LIGHTBOX FOLDER read-ahead MODE [WAIT-S]   (keys while it reads ahead, then G after WAIT-S, 25 by default)"""
import fcntl, os, pty, re, select, shutil, struct, subprocess, sys, tempfile, termios, time

QUIET = 0.7
# Debian's timg has no sixel; for kitty and iTerm2 it is given --compress, its smallest.
TIMG_MODES = {"kitty": ["-pk", "--compress"], "iterm": ["-pi", "--compress"], "half": ["-ph"], "quadrant": ["-pq"]}

class Link:
    """A child in a pseudo-terminal whose output is read at `rate` bytes a second (None: at once)."""
    def __init__(self, argv, env, rate, size=(48, 160)):
        self.rate, self.total, self.log = rate, 0, bytearray()
        self.pid, self.fd = pty.fork()
        if self.pid == 0:
            os.environ.update(env)
            os.execvp(argv[0], argv)
        rows, columns = size
        fcntl.ioctl(self.fd, termios.TIOCSWINSZ, struct.pack("HHHH", rows, columns, columns * 10, rows * 20))
        self.budget, self.clock = 0.0, time.time()
        self.answered, self.tail, self.record = False, b"", None
        self.first_at = self.last_at = None  # when the screen began, and when the latest bytes were read

    def pump(self, seconds=None, quiet=None, until=None):
        """Reads for `seconds`, or until nothing came for `quiet` seconds, or until `until` is read;
        with `record` set (a list), everything read is kept in `log`."""
        start = last = time.time()
        while True:
            now = time.time()
            if seconds is not None and now - start >= seconds: return
            if quiet is not None and now - last >= quiet: return
            if self.rate:
                self.budget = min(self.budget + (now - self.clock) * self.rate, 65536)
                self.clock = now
                if self.budget < 512:
                    time.sleep(0.002)
                    continue
            r, _, _ = select.select([self.fd], [], [], 0.01)
            if not r: continue
            try:
                data = os.read(self.fd, int(self.budget) if self.rate else 65536)
            except OSError:
                return "closed"
            if not data: return "closed"
            self.total += len(data); last = time.time()
            self.last_at = last
            # The screen begins where curses switches to the alternate screen (after any probe).
            if self.first_at is None and b"\x1b[?1049h" in self.tail + data: self.first_at = last
            # Answer the device-attributes query as a terminal does, so a probe ends at once.
            if not self.answered and b"\x1b[c" in self.tail + data:
                os.write(self.fd, b"\x1b[?62;4;22c"); self.answered = True
            self.tail = data[-8:]
            if self.rate: self.budget -= len(data)
            if until is not None or self.record is not None:
                self.log += data
                if until is not None and until in self.log: return "found"

    def started(self):
        """Reads until the terminal's probe is answered (pixel modes ask it first)."""
        self.pump(seconds=0.05)
        self.log = bytearray()

    def keys(self, data): os.write(self.fd, data)

    @property
    def app(self):
        """The process that works: the child of the one started (the watcher the shell waits for,
        `lightbox-wait`) named lightbox, once it has forked it; else the one started."""
        try:
            with open(f"/proc/{self.pid}/task/{self.pid}/children") as children:
                for child in children.read().split():
                    with open(f"/proc/{child}/comm") as comm:
                        if comm.read().strip() == "lightbox": return int(child)
        except OSError:
            pass
        return self.pid

    def close(self):
        try: os.write(self.fd, b"q")
        except OSError: pass
        self.pump(quiet=0.3)
        try: os.kill(self.pid, 9)
        except OSError: pass
        os.waitpid(self.pid, 0)

def lightbox(binary, mode, folder, rate, cache, extra=(), size=(48, 160)):
    """Lightbox in `mode` on `folder`, with the thumbnail cache under `cache` and `extra` options."""
    env = {"TERM": "xterm-256color", "COLORTERM": "truecolor", "XDG_CACHE_HOME": cache, "LANG": "C.UTF-8"}
    return Link([binary, "--graphics", mode, *extra, folder], env, rate, size)

def scrolling(binary, folder, mode, cache, turns=10):
    """Bytes a line scrolled with the mouse wheel (three lines a turn) costs, beside what a row of
    the first screen costs on average; and, for sixel, how many rows of cells of pictures were
    painted a line scrolled (1.0: only the rows that came into view) and the share of the bytes
    that is those pictures."""
    link = lightbox(binary, mode, folder, None, cache)
    link.started()
    link.record = []
    link.pump(quiet=QUIET)
    first = link.total
    start = len(link.log)
    for _ in range(turns):
        link.keys(b"\x1b[<65;40;20M")  # SGR mouse: wheel down at column 40, row 20
        link.pump(quiet=0.3)
    scrolled = link.total - first
    segment = bytes(link.log[start:])
    link.close()
    lines, rows = 3 * turns, 47  # the grid's rows: the screen less the status line
    pieces = re.findall(rb"\x1b\[\d+;(\d+)H(\x1bP[^\x1b]*\x1b\\)", segment)
    columns = len({column for column, _ in pieces}) or 1
    painted_rows = sum(int(m.group(1)) for _, body in pieces if (m := re.search(rb'"1;1;\d+;(\d+)', body))) / 20 / columns
    picture_bytes = sum(len(body) for _, body in pieces)
    return scrolled / lines, first / rows, painted_rows / lines, picture_bytes / scrolled if scrolled else 0

def key_latency(binary, folder, mode, cache, count=200):
    """On a link read as fast as written: `count` keys (l and h in turn, 60 ms apart) after the
    first screen, each timed from the key to its frame's first byte and to its last (the frame
    ends at 30 ms without output). Returns the two lists in milliseconds."""
    link = lightbox(binary, mode, folder, None, cache)
    link.started()
    link.pump(quiet=QUIET)
    first_bytes, last_bytes = [], []
    for i in range(count):
        before = link.total
        start = time.time()
        link.keys(b"l" if i % 2 == 0 else b"h")
        first = None
        while time.time() - start < 2:
            link.pump(seconds=0.001)
            if link.total > before:
                first = time.time() - start
                break
        link.pump(quiet=0.03)
        if first is not None:
            first_bytes.append(first * 1000)
            last_bytes.append((time.time() - start - 0.03) * 1000)
        time.sleep(0.03)
    link.close()
    return first_bytes, last_bytes

def read_ahead(binary, folder, mode, extra, wait=25.0, keys=30):
    """The read-ahead on a cold disk cache: key-to-frame while it works (keys 0.6 s apart, so it
    resumes between them), then, after `wait` seconds, G: the time from G to the last byte of
    the last screen and whether --stats counted any decode after it. Returns (first-byte
    latencies ms, G ms, stats text)."""
    cache = tempfile.mkdtemp()
    try:
        link = lightbox(binary, mode, folder, None, cache, ["--stats", *extra])
        link.started()
        link.pump(quiet=QUIET)
        latencies = []
        for i in range(keys):
            before, start = link.total, time.time()
            link.keys(b"l" if i % 2 == 0 else b"h")
            while time.time() - start < 2 and link.total == before:
                link.pump(seconds=0.001)
            if link.total > before: latencies.append((time.time() - start) * 1000)
            link.pump(seconds=0.6)
        link.pump(seconds=max(0.0, wait - keys * 0.6))
        link.record = []
        start = time.time()
        link.keys(b"G")
        link.pump(quiet=0.5)
        g_time = (link.last_at - start) * 1000
        link.keys(b"q"); link.pump(quiet=1.0)
        stats = bytes(link.log).decode("utf-8", "replace")
        try: os.waitpid(link.pid, 0)
        except ChildProcessError: pass
        return latencies, g_time, stats
    finally:
        shutil.rmtree(cache, ignore_errors=True)

def percentile(values, p):
    values = sorted(values)
    return values[min(len(values) - 1, int(len(values) * p / 100))] if values else float("nan")

def main():
    if sys.argv[3] == "read-ahead":
        binary, folder, mode = sys.argv[1], sys.argv[2], sys.argv[4]
        wait = float(sys.argv[5]) if len(sys.argv) > 5 else 25.0
        print(f"| read-ahead | key to its first byte, p50 / p99 (keys 0.6 s apart from the first screen on) | G after {wait:.0f} s: to the last byte | the gallery's thumbnails (stats) | the read-ahead (stats) |")
        print("| --- | --- | --- | --- | --- |")
        for label, extra in [("all", []), ("off", ["--read-ahead", "off"])]:
            latencies, g_time, stats = read_ahead(binary, folder, mode, extra, wait=wait)
            counts = {line.split(":")[0].strip(): line.split(":")[1].strip() for line in stats.split("\n") if ":" in line and line.startswith("  ")}
            decodes = ", ".join(f"{k} {v}" for k, v in counts.items() if k in ("JPEG DCT-scaled", "EXIF thumbnail", "disk cache") and v)
            ahead = next((line.split(":", 1)[1].strip() for line in stats.split("\n") if line.strip().startswith("read ahead:")), "-")
            print(f"| {label} | {percentile(latencies, 50):.1f} / {percentile(latencies, 99):.1f} ms | {g_time:.0f} ms | {decodes} | {ahead} |")
        return
    if sys.argv[3] == "keys":
        binaries, folder = sys.argv[1].split(","), sys.argv[2]
        cache = tempfile.mkdtemp()
        print("| build | mode | key to its first byte, p50 / p99 | key to its frame's last byte, p50 / p99 |")
        print("| --- | --- | --- | --- |")
        try:
            for mode in sys.argv[4].split(","):
                for binary in binaries:
                    first, last = key_latency(binary, folder, mode, cache)
                    print(f"| {binary} | {mode} | {percentile(first, 50):.1f} / {percentile(first, 99):.1f} ms | {percentile(last, 50):.1f} / {percentile(last, 99):.1f} ms |")
        finally:
            shutil.rmtree(cache, ignore_errors=True)
        return
    if sys.argv[3] == "scroll":
        binary, folder = sys.argv[1], sys.argv[2]
        cache = tempfile.mkdtemp()
        print("| mode | bytes a line scrolled (the wheel, 30 lines) | a row of the first screen, on average | ratio | sixel: rows of pictures painted a line scrolled | sixel: share of the bytes that is those rows' pictures |")
        print("| --- | --- | --- | --- | --- | --- |")
        try:
            for mode in sys.argv[4].split(","):
                line, row, painted, share = scrolling(binary, folder, mode, cache)
                sixel = f"{painted:.2f} | {share * 100:.0f}%" if mode == "sixel" else "- | -"
                print(f"| {mode} | {line / 1e3:.1f} kB | {row / 1e3:.1f} kB | {line / row:.2f} | {sixel} |")
        finally:
            shutil.rmtree(cache, ignore_errors=True)
        return
    binary, folder, modes = sys.argv[1], sys.argv[2], sys.argv[3].split(",")
    kbit = int(sys.argv[4]) if len(sys.argv) > 4 else None
    rate = kbit * 1000 / 8 if kbit else None
    cache = tempfile.mkdtemp()
    files = sorted(os.path.join(folder, f) for f in os.listdir(folder))[:24]
    print(f"| mode | first screen | its first to last byte | 5 x PgDn | the last key to the last byte | key's cells while streaming | timg --grid, 24 files |")
    print("| --- | --- | --- | --- | --- | --- | --- |")
    try:
        for mode in modes:
            shutil.rmtree(cache); os.mkdir(cache)  # the disk cache warm from here on: decoding is not what is measured
            # The pages measured in the disk cache first, at this mode's size, so they cost the wire, not decoding.
            warm = lightbox(binary, mode, folder, None, cache); warm.started(); warm.pump(quiet=1.5)
            for _ in range(5):
                warm.keys(b"\x1b[6~"); warm.pump(quiet=1.0)
            warm.close()
            link = lightbox(binary, mode, folder, rate, cache)
            link.started()
            link.pump(quiet=QUIET)
            # The first screen's own time: from its first byte to its last.
            first, first_time = link.total, link.last_at - link.first_at
            start = time.time()
            for i in range(5):
                link.keys(b"\x1b[6~")
                last_key = time.time()
                link.pump(seconds=0.15)
            link.pump(quiet=QUIET)
            pages, pages_time = link.total - first, link.last_at - last_key
            link.close()
            link = lightbox(binary, mode, folder, rate, cache)
            link.started()
            link.pump(seconds=0.2)
            start = time.time(); link.keys(b"i")
            found = link.pump(until=b"Details", seconds=20)
            key = time.time() - start if found == "found" else None
            link.close()
            timg = "-"
            if mode in TIMG_MODES and shutil.which("timg"):
                t = Link(["timg", "--grid=6x4", "-g160x48", "--threads=2"] + TIMG_MODES[mode] + files,
                         {"TERM": "xterm-256color", "COLORTERM": "truecolor"}, rate)
                start = time.time(); t.pump(quiet=QUIET)
                timg = f"{t.total / 1e6:.2f} MB, {t.last_at - start:.2f} s"
                try: os.waitpid(t.pid, 0)
                except ChildProcessError: pass
            key_text = f"{key * 1000:.0f} ms" if key is not None else "not in 20 s"
            print(f"| {mode} | {first / 1e6:.2f} MB | {first_time:.2f} s | {pages / 1e6:.2f} MB | {pages_time:.2f} s | {key_text} | {timg} |")
    finally:
        shutil.rmtree(cache, ignore_errors=True)

if __name__ == "__main__":
    main()
