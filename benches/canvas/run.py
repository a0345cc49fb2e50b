#!/usr/bin/env python3
"""The canvas benchmark: 20,000 filled rectangles and 20,000 filled circles,
the fill colour changed before every shape, into an 800x600 surface, drawn
by Festina (benches/canvas/draw_shapes.f) and by an HTML <canvas> in
headless Chromium (benches/canvas/scene.html), in one run.

    python3 benches/canvas/run.py            # both sides, writes RESULTS.md
    python3 benches/canvas/run.py --runs 20 --no-write

Each side times its own draw loop with its own monotonic clock
(performance.now() in the page, the program's clock in Festina); the
browser reads back one pixel (getImageData) at the end of the rectangles
and of the circles, inside the timed region, which forces Skia to
rasterize what was recorded. One warm-up frame, then --runs timed frames;
minimum and median are reported. Start-up is the wall time from launching
the process to its exit after one frame (runs=0, no export): for the
browser that includes starting Chromium.

The outputs are compared on a 16x16 grid: both PNGs (the browser's is
exported composited onto white; Festina's canvas starts transparent and is
composited onto white here) are averaged per cell and per channel, and the
worst per-channel difference is reported. Not byte-for-byte: Skia and Cairo
antialias curves differently.

The Festina program's interface (it is written separately):
    festina benches/canvas/draw_shapes.f RUNS OUT.png
draws one warm-up frame and RUNS timed frames of the same scene (the PRNG
is documented in scene.html), prints one line per frame, warm-up first:
    rects <ms> circles <ms> total <ms>
and saves the last frame with saveCanvas(OUT.png). Until it exists its row
says "not available".
"""

import argparse
import html
import json
import os
import re
import shutil
import statistics
import struct
import subprocess
import sys
import tempfile
import time
import zlib
import base64

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.dirname(HERE))
import peers  # noqa: E402  (benches/peers.py)

OUT = os.path.join(HERE, "out")
CHROMIUM_FLAGS = [
    "--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
    "--disable-background-networking", "--disable-component-update", "--disable-sync",
]
TITLE = "Canvas: 40,000 shapes against headless Chromium (benches/canvas/run.py)"
log = peers.log


def find_chromium():
    for name in ("chromium", "chromium-browser"):
        if shutil.which(name):
            return shutil.which(name)
    return None


def chromium(exe, runs, export):
    """One page load. Returns (result dict, wall seconds from launch to exit)."""
    page = "file://" + os.path.join(HERE, "scene.html") + f"?runs={runs}&export={1 if export else 0}"
    with tempfile.TemporaryDirectory(prefix="canvas-chromium-") as profile:
        cmd = [exe] + CHROMIUM_FLAGS + [f"--user-data-dir={profile}", "--dump-dom", page]
        t0 = time.monotonic()
        p = subprocess.run(cmd, capture_output=True, text=True, timeout=300)
        wall = time.monotonic() - t0
    m = re.search(r'<pre id="result">(.*?)</pre>', p.stdout, re.S)
    if p.returncode != 0 or not m or not m.group(1):
        sys.exit(f"chromium failed (status {p.returncode}): {p.stderr.strip()[-500:]}")
    return json.loads(html.unescape(m.group(1))), wall


def festina_side(festina, runs, png):
    """Returns (frames, wall seconds) or a 'not available' string."""
    src = os.path.join(HERE, "draw_shapes.f")
    t0 = time.monotonic()
    p = subprocess.run([festina, src, str(runs), png], capture_output=True, text=True, timeout=600)
    wall = time.monotonic() - t0
    if p.returncode != 0:
        return f"not available: festina exited with {p.returncode}: {p.stderr.strip()[-300:]}"
    frames = []
    for line in p.stdout.splitlines():
        m = re.match(r"\s*rects\s+([\d.]+)\s+circles\s+([\d.]+)\s+total\s+([\d.]+)", line)
        if m:
            frames.append(dict(zip(("rects_ms", "circles_ms", "total_ms"), map(float, m.groups()))))
    if len(frames) != runs + 1:
        return f"not available: expected {runs + 1} 'rects .. circles .. total ..' lines, got {len(frames)}"
    return {"warmup": frames[0], "runs": frames[1:]}, wall


def decode_png(data):
    """8-bit RGB/RGBA/grey(+alpha), non-interlaced PNG -> (width, height, RGBA bytes)."""
    if data[:8] != b"\x89PNG\r\n\x1a\n":
        raise ValueError("not a PNG")
    pos, idat, ihdr = 8, [], None
    while pos < len(data):
        length, kind = struct.unpack(">I4s", data[pos:pos + 8])
        body = data[pos + 8:pos + 8 + length]
        pos += 12 + length
        if kind == b"IHDR":
            ihdr = struct.unpack(">IIBBBBB", body)
        elif kind == b"IDAT":
            idat.append(body)
        elif kind == b"IEND":
            break
    w, h, depth, ctype, _, _, interlace = ihdr
    channels = {0: 1, 2: 3, 4: 2, 6: 4}.get(ctype)
    if depth != 8 or channels is None or interlace:
        raise ValueError(f"unsupported PNG (depth {depth}, colour type {ctype}, interlace {interlace})")
    raw = zlib.decompress(b"".join(idat))
    stride = w * channels
    out = bytearray(h * stride)
    prev = bytearray(stride)
    for y in range(h):
        f = raw[y * (stride + 1)]
        line = bytearray(raw[y * (stride + 1) + 1:(y + 1) * (stride + 1)])
        if f == 1:
            for i in range(channels, stride):
                line[i] = (line[i] + line[i - channels]) & 255
        elif f == 2:
            for i in range(stride):
                line[i] = (line[i] + prev[i]) & 255
        elif f == 3:
            for i in range(stride):
                left = line[i - channels] if i >= channels else 0
                line[i] = (line[i] + ((left + prev[i]) >> 1)) & 255
        elif f == 4:
            for i in range(stride):
                a = line[i - channels] if i >= channels else 0
                b = prev[i]
                c = prev[i - channels] if i >= channels else 0
                p = a + b - c
                pa, pb, pc = abs(p - a), abs(p - b), abs(p - c)
                pred = a if pa <= pb and pa <= pc else (b if pb <= pc else c)
                line[i] = (line[i] + pred) & 255
        out[y * stride:(y + 1) * stride] = line
        prev = line
    if channels == 4:
        return w, h, bytes(out)
    rgba = bytearray(w * h * 4)
    for i in range(w * h):
        px = out[i * channels:(i + 1) * channels]
        if channels == 3:
            rgba[i * 4:i * 4 + 4] = bytes(px) + b"\xff"
        elif channels == 1:
            rgba[i * 4:i * 4 + 4] = bytes([px[0]] * 3) + b"\xff"
        else:
            rgba[i * 4:i * 4 + 4] = bytes([px[0]] * 3 + [px[1]])
    return w, h, bytes(rgba)


def grid(png_bytes, cells=16):
    """Composite onto white, then the mean of each channel over each cell: cells x cells x 3."""
    w, h, px = decode_png(png_bytes)
    sums = [[[0.0, 0.0, 0.0, 0] for _ in range(cells)] for _ in range(cells)]
    for y in range(h):
        row = sums[y * cells // h]
        base = y * w * 4
        for x in range(w):
            i = base + x * 4
            a = px[i + 3]
            cell = row[x * cells // w]
            for c in range(3):  # straight alpha over white
                cell[c] += (px[i + c] * a + 255 * (255 - a)) / 255
            cell[3] += 1
    return [[[cell[c] / cell[3] for c in range(3)] for cell in row] for row in sums]


def worst_difference(a, b):
    return max(abs(a[y][x][c] - b[y][x][c]) for y in range(len(a)) for x in range(len(a)) for c in range(3))


def summarize(frames):
    totals = [f["total_ms"] for f in frames]
    best = min(frames, key=lambda f: f["total_ms"])
    return {"min": min(totals), "median": statistics.median(totals),
            "rects_best": best["rects_ms"], "circles_best": best["circles_ms"]}


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--runs", type=int, default=10, help="timed frames after one warm-up frame")
    ap.add_argument("--festina", help="festina binary (default: build target/release/festina)")
    ap.add_argument("--no-write", action="store_true")
    args = ap.parse_args()
    exe = find_chromium()
    if exe is None:
        sys.exit("chromium is not installed (bash benches/setup.sh)")
    os.makedirs(OUT, exist_ok=True)

    log("chromium: start-up frame")
    _, chrome_start = chromium(exe, 0, False)
    log(f"chromium: 1 warm-up + {args.runs} frames")
    page, _ = chromium(exe, args.runs, True)
    chrome_png = base64.b64decode(page["png"].split(",", 1)[1])
    with open(os.path.join(OUT, "chromium.png"), "wb") as f:
        f.write(chrome_png)
    chrome = summarize(page["runs"])
    chrome_grid = grid(chrome_png)
    with open(os.path.join(OUT, "chromium_grid.json"), "w") as f:
        json.dump(chrome_grid, f)
    version = peers.version([exe, "--version"])

    festina_row, fest, fest_start, diff = None, None, None, None
    if not os.path.exists(os.path.join(HERE, "draw_shapes.f")):
        festina_row = "not available: benches/canvas/draw_shapes.f does not exist yet"
    else:
        binary = peers.find_festina(args.festina)
        if binary is None:
            festina_row = "not available: no festina binary"
        else:
            png = os.path.join(OUT, "festina.png")
            r = festina_side(binary, 0, os.path.join(OUT, "festina_start.png"))
            if isinstance(r, str):
                festina_row = r
            else:
                fest_start = r[1]
                r = festina_side(binary, args.runs, png)
                if isinstance(r, str):
                    festina_row = r
                else:
                    fest = summarize(r[0]["runs"])
                    diff = worst_difference(grid(open(png, "rb").read()), chrome_grid)

    lines = peers.header(TITLE, f"{version}, flags `{' '.join(CHROMIUM_FLAGS)}`, a fresh profile per launch.") + [
        f"Command: `python3 benches/canvas/run.py --runs {args.runs}` (one warm-up frame, then "
        f"{args.runs} timed frames per side; the scene and its PRNG are documented in benches/canvas/scene.html).",
        "",
        "| | best frame | median frame | rectangles (best frame) | circles (best frame) | start-up to first frame |",
        "|---|---:|---:|---:|---:|---:|",
        f"| Chromium `<canvas>` | {chrome['min']:.1f} ms | {chrome['median']:.1f} ms | {chrome['rects_best']:.1f} ms | "
        f"{chrome['circles_best']:.1f} ms | {chrome_start * 1000:.0f} ms |",
    ]
    if fest:
        lines.append(f"| Festina | {fest['min']:.1f} ms | {fest['median']:.1f} ms | {fest['rects_best']:.1f} ms | "
                     f"{fest['circles_best']:.1f} ms | {fest_start * 1000:.0f} ms |")
        lines += ["", f"Festina is {chrome['min'] / fest['min']:.1f}x Chromium (best frames; "
                  f"{chrome['median'] / fest['median']:.1f}x on medians). 16x16 grid, both composited onto white: "
                  f"worst per-channel difference {diff:.1f} of 255."]
    else:
        lines += [peers.missing_row("Festina", festina_row, 5), "",
                  "No ratio: the Festina side is not available yet."]
    lines += ["", "Start-up is the wall time from launching the process to its exit after one frame "
              "(`runs=0`, no export); for Chromium that includes starting the browser and `--dump-dom`."]
    peers.publish(TITLE, lines, not args.no_write)


if __name__ == "__main__":
    main()
