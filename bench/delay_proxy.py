#!/usr/bin/env python3
"""An ssh ProxyCommand that adds a round trip: delay_proxy.py HOST PORT DELAY_MS [KBIT_S].

Relays standard input to HOST:PORT and back, each chunk held DELAY_MS before it is passed on in
either direction (so a round trip costs twice that), in order, without holding up the chunks
behind it (latency, not a narrower pipe). With KBIT_S, each direction is also capped at that
many kilobits a second. Ends when either side closes.
"""
import heapq
import os
import socket
import sys
import threading
import time


def relay(read, write, delay, rate):
    """Copies chunks from read() to write(), each delay seconds after it came, at most rate bytes/s."""
    pending = []  # (due, sequence, chunk)
    lock = threading.Condition()
    done = [False]

    def reader():
        sequence = 0
        while True:
            try:
                chunk = read()
            except OSError:
                chunk = b""
            with lock:
                if not chunk:
                    done[0] = True
                    lock.notify()
                    return
                heapq.heappush(pending, (time.monotonic() + delay, sequence, chunk))
                sequence += 1
                lock.notify()

    threading.Thread(target=reader, daemon=True).start()
    free_at = time.monotonic()
    while True:
        with lock:
            while not pending and not done[0]:
                lock.wait()
            if not pending:
                return
            due, _, chunk = pending[0]
            now = time.monotonic()
            if due > now:
                lock.wait(due - now)
                continue
            heapq.heappop(pending)
        if rate:
            free_at = max(free_at, time.monotonic()) + len(chunk) / rate
            pause = free_at - time.monotonic()
            if pause > 0:
                time.sleep(pause)
        try:
            write(chunk)
        except OSError:
            return


def main():
    host, port, delay_ms = sys.argv[1], int(sys.argv[2]), float(sys.argv[3])
    rate = float(sys.argv[4]) * 1000 / 8 if len(sys.argv) > 4 else 0
    delay = delay_ms / 1000
    server = socket.create_connection((host, port))
    server.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
    stdin, stdout = sys.stdin.fileno(), sys.stdout.fileno()

    def write_out(chunk):
        view = memoryview(chunk)
        while view:
            view = view[os.write(stdout, view):]

    up = threading.Thread(target=relay, args=(lambda: os.read(stdin, 65536), server.sendall, delay, rate), daemon=True)
    up.start()
    relay(lambda: server.recv(65536), write_out, delay, rate)
    try:
        server.shutdown(socket.SHUT_RDWR)
    except OSError:
        pass


if __name__ == "__main__":
    main()
