#!/usr/bin/env python3
"""A deterministic WebSocket client for profiling the wsdb servers.

Sends `--warmup` readings (untimed), then runs `--on CMD` (e.g.
`callgrind_control -i on PID`), then `--count` readings, each awaiting its
reply, then `--off CMD`. Readings are the load tool's
(`{"sensor": "load-<i>", "value": <n>.5}`). Prints the messages sent and
the reply bytes received. Standard library only; only 127.0.0.1.

    python3 benches/flagship/wsclient.py --port 9090 --warmup 200 --count 1000
"""
import argparse
import base64
import os
import shlex
import socket
import struct
import subprocess
import time


def frame(payload: bytes) -> bytes:
    mask = b"\x11\x22\x33\x44"
    n = len(payload)
    if n < 126:
        head = struct.pack("!BB", 0x81, 0x80 | n)
    elif n < 65536:
        head = struct.pack("!BBH", 0x81, 0x80 | 126, n)
    else:
        head = struct.pack("!BBQ", 0x81, 0x80 | 127, n)
    body = bytes(b ^ mask[i % 4] for i, b in enumerate(payload))
    return head + mask + body


def recv_exact(s: socket.socket, n: int, buf: bytearray) -> bytes:
    while len(buf) < n:
        chunk = s.recv(65536)
        if not chunk:
            raise EOFError("server closed")
        buf.extend(chunk)
    out = bytes(buf[:n])
    del buf[:n]
    return out


def recv_message(s: socket.socket, buf: bytearray) -> bytes:
    b0, b1 = recv_exact(s, 2, buf)
    n = b1 & 0x7F
    if n == 126:
        (n,) = struct.unpack("!H", recv_exact(s, 2, buf))
    elif n == 127:
        (n,) = struct.unpack("!Q", recv_exact(s, 8, buf))
    return recv_exact(s, n, buf)


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--port", type=int, default=9090)
    ap.add_argument("--warmup", type=int, default=200)
    ap.add_argument("--count", type=int, default=1000)
    ap.add_argument("--on", default="", help="command run after the warm-up")
    ap.add_argument("--off", default="", help="command run after the timed messages")
    ap.add_argument("--wait", type=float, default=30.0, help="seconds to wait for the server")
    a = ap.parse_args()
    deadline = time.time() + a.wait
    while True:
        try:
            s = socket.create_connection(("127.0.0.1", a.port), timeout=60)
            break
        except OSError:
            if time.time() > deadline:
                raise
            time.sleep(0.2)
    key = base64.b64encode(os.urandom(16)).decode()
    s.sendall(
        (
            "GET /db HTTP/1.1\r\nHost: 127.0.0.1\r\nUpgrade: websocket\r\n"
            "Connection: Upgrade\r\nSec-WebSocket-Version: 13\r\n"
            f"Sec-WebSocket-Key: {key}\r\n\r\n"
        ).encode()
    )
    buf = bytearray()
    while b"\r\n\r\n" not in buf:
        buf.extend(s.recv(4096))
    head, _, rest = bytes(buf).partition(b"\r\n\r\n")
    assert head.startswith(b"HTTP/1.1 101"), head
    buf = bytearray(rest)
    total = 0
    for i in range(a.warmup + a.count):
        if i == a.warmup and a.on:
            subprocess.run(shlex.split(a.on), check=True, capture_output=True)
        msg = f'{{"sensor": "load-{i}", "value": {i}.5}}'.encode()
        s.sendall(frame(msg))
        total += len(recv_message(s, buf))
    if a.off:
        subprocess.run(shlex.split(a.off), check=True, capture_output=True)
    print(f"messages {a.warmup + a.count} reply_bytes {total}")


if __name__ == "__main__":
    main()
