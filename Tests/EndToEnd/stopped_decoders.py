#!/usr/bin/env python3
"""Quitting with every decoder process stopped (SIGSTOP: the factory and its decoders, and the
read-ahead's) ends Lightbox within half a second, and none of them outlives it by a second.
Prints a verdict line (ok/FAIL). Usage: stopped_decoders.py LIGHTBOX FOLDER WORKDIR"""
import os, signal, subprocess, sys, time

sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", "..", "bench"))
from wire import lightbox  # noqa: E402

binary, folder, work = sys.argv[1], sys.argv[2], sys.argv[3]

def descendants(pid):
    table = {}
    for line in subprocess.run(["ps", "-e", "-o", "pid=,ppid="], capture_output=True, text=True).stdout.splitlines():
        child, parent = map(int, line.split())
        table.setdefault(parent, []).append(child)
    found, todo = [], [pid]
    while todo:
        for child in table.get(todo.pop(), []):
            found.append(child)
            todo.append(child)
    return found

def alive(pid):
    try:
        with open(f"/proc/{pid}/stat") as stat: return stat.read().split(")")[-1].split()[0] != "Z"
    except OSError:
        return False

link = lightbox(binary, "half", folder, None, os.path.join(work, "stopped-cache"), [], size=(40, 120))
link.pump(seconds=2.0)  # the screen, then the read-ahead's decoders start
decoders = descendants(link.app)  # the app's, not the app (the watcher's child)
for pid in decoders:
    os.kill(pid, signal.SIGSTOP)
start = time.time()
os.write(link.fd, b"q")
code = None
while time.time() - start < 5:
    link.pump(seconds=0.01)
    pid, status = os.waitpid(link.pid, os.WNOHANG)
    if pid:
        code = os.waitstatus_to_exitcode(status)
        break
took = time.time() - start
time.sleep(1)
left = [pid for pid in decoders if alive(pid)]
for pid in left + ([] if code is not None else [link.pid]):
    os.kill(pid, signal.SIGKILL)
ok = code == 130 and took <= 0.5 and not left and len(decoders) >= 2
print(("ok - " if ok else "FAIL - ") + f"q with {len(decoders)} decoder processes stopped: ended in {took:.2f} s (exit {code}), {len(left)} left a second later")
