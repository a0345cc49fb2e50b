#!/usr/bin/env python3
"""The audio benchmark: decode time of a 3-minute WAV (16-bit PCM, 44,100 Hz
stereo) and MP3 (192 kbit/s), and the latency from play() to the first
samples reaching the sink, for Festina and for Python's pydub (ffmpeg) and
pygame.mixer (SDL_mixer), in one run.

    python3 benches/audio/run.py                # writes RESULTS.md
    python3 benches/audio/run.py --runs 3 --no-write

The media are generated here, never committed, into benches/audio/out/
(ignored by git): `sox -n -r 44100 -c 2 -b 16 song.wav synth 180 sine
220-880 brownnoise vol 0.5` (a sweep on the left, brown noise on the
right), `lame --quiet -b 192 song.wav song.mp3` (ffmpeg when lame is
missing), and a 0.25 s square-wave click for the latency run.

Peers: benches/audio/peer.py (its docstring says exactly what is timed).
The latency of pygame.mixer is measured through SDL's disk audio driver
(SDL_AUDIODRIVER=disk): no sound card is needed, and the driver paces the
stream in real time the way a device would. pydub has no player of its own
(simpleaudio needs an ALSA device), so it has no latency row.

The Festina side follows the same protocol with two programs, run with
FESTINA_AUDIO_SINK=null and FESTINA_AUDIO_TRACE=out/trace-<name>.txt:
    festina benches/audio/decode.f FILE RUNS   -> decode_ms <min> <median> frames <n> rate <hz> channels <n>
    festina benches/audio/latency.f CLICK RUNS -> latency_ms wall <min> <median> stream <min> <median>
Each reads the runtime's audio trace (stdlib/src/audio/trace.rs), which
times a load from before the file is read to the decoded clip, and a
play() to the moment the null sink pulls the clip's first non-zero sample.
"""

import argparse
import os
import re
import shutil
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.dirname(HERE))
import peers  # noqa: E402  (benches/peers.py)

OUT = os.path.join(HERE, "out")
TITLE = "Audio: decoding and play() latency against pydub and pygame.mixer (benches/audio/run.py)"
log = peers.log


def sh(cmd):
    log("$ " + " ".join(cmd))
    subprocess.run(cmd, check=True, cwd=OUT)


def make_media(regen):
    os.makedirs(OUT, exist_ok=True)
    if shutil.which("sox") is None:
        sys.exit("sox is not installed (scripts/setup.sh installs it)")
    if regen or not os.path.exists(os.path.join(OUT, "song.wav")):
        sh(["sox", "-n", "-r", "44100", "-c", "2", "-b", "16", "song.wav", "synth", "180", "sine", "220-880", "brownnoise", "vol", "0.5"])
    if regen or not os.path.exists(os.path.join(OUT, "song.mp3")):
        if shutil.which("lame"):
            sh(["lame", "--quiet", "-b", "192", "song.wav", "song.mp3"])
        else:
            sh(["ffmpeg", "-loglevel", "error", "-y", "-i", "song.wav", "-b:a", "192k", "song.mp3"])
    if regen or not os.path.exists(os.path.join(OUT, "click.wav")):
        sh(["sox", "-n", "-r", "44100", "-c", "2", "-b", "16", "click.wav", "synth", "0.25", "square", "440", "vol", "0.5"])


def run(cmd, pattern):
    log("$ " + " ".join(cmd))
    env = dict(os.environ, PYGAME_HIDE_SUPPORT_PROMPT="1")
    p = subprocess.run(cmd, capture_output=True, text=True, timeout=900, env=env)
    m = re.search(pattern, p.stdout, re.M)
    if p.returncode != 0 or not m:
        return f"not available: exited {p.returncode}: {(p.stderr or p.stdout).strip()[-300:]}"
    return [float(g) for g in m.groups()]


DECODE = r"^decode_ms ([\d.]+) ([\d.]+) frames (\d+) rate (\d+) channels (\d+)"
LATENCY = r"^latency_ms wall ([\d.]+) ([\d.]+) stream ([\d.]+) ([\d.]+)"


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--runs", type=int, default=5, help="timed decodes per file (after one untimed)")
    ap.add_argument("--plays", type=int, default=10, help="plays in the latency run")
    ap.add_argument("--festina", help="festina binary (default: build target/release/festina)")
    ap.add_argument("--regen", action="store_true", help="generate the media again")
    ap.add_argument("--no-write", action="store_true")
    args = ap.parse_args()
    make_media(args.regen)
    py = [sys.executable, os.path.join(HERE, "peer.py")]
    files = {"WAV": os.path.join(OUT, "song.wav"), "MP3": os.path.join(OUT, "song.mp3")}
    click = os.path.join(OUT, "click.wav")

    festina = None
    have_f = [os.path.exists(os.path.join(HERE, f)) for f in ("decode.f", "latency.f")]
    if any(have_f):
        festina = peers.find_festina(args.festina)
    def festina_cmd(name):
        src = os.path.join(HERE, name)
        if not os.path.exists(src):
            return f"not available: benches/audio/{name} does not exist yet"
        if not festina:
            return "not available: no festina binary"
        # The programs read the runtime's audio trace (stdlib/src/audio/
        # trace.rs) for their timings; sound goes to the null sink.
        trace = os.path.join(OUT, f"trace-{name[:-2]}.txt")
        return ["env", "FESTINA_AUDIO_SINK=null", f"FESTINA_AUDIO_TRACE={trace}", festina, src]

    decode = {}
    for kind, path in files.items():
        fc = festina_cmd("decode.f")
        decode[("Festina", kind)] = fc if isinstance(fc, str) else run(fc + [path, str(args.runs)], DECODE)
        for lib, name in (("pydub", "pydub (ffmpeg)"), ("pygame", "pygame.mixer (SDL_mixer)")):
            decode[(name, kind)] = run(py + ["decode", lib, path, str(args.runs)], DECODE)
    latency = {}
    fc = festina_cmd("latency.f")
    latency["Festina (null sink)"] = fc if isinstance(fc, str) else run(fc + [click, str(args.plays)], LATENCY)
    latency["pygame.mixer (SDL disk driver)"] = run(
        py + ["latency", click, str(args.plays), os.path.join(OUT, "sink.raw")], LATENCY)
    for k, v in list(decode.items()) + list(latency.items()):
        log(f"{k}: {v}")

    pg = peers.version([sys.executable, "-c", "import os; os.environ['PYGAME_HIDE_SUPPORT_PROMPT']='1'; import pygame; "
                        "print('pygame', pygame.version.ver, 'SDL_mixer', '.'.join(map(str, pygame.mixer.get_sdl_mixer_version())))"])
    pd = peers.version([sys.executable, "-c", "from importlib.metadata import version; print('pydub', version('pydub'))"])
    lines = peers.header(TITLE, f"{pg}; {pd} with {peers.version(['ffmpeg', '-version']).split(' Copyright')[0]}; "
                         f"{peers.version([sys.executable, '--version'])}.") + [
             f"Command: `python3 benches/audio/run.py --runs {args.runs} --plays {args.plays}`. Files: 3 minutes, "
             "44,100 Hz stereo; song.wav 16-bit PCM, song.mp3 192 kbit/s (lame), generated by the runner.", "",
             "| Decoder | WAV best | WAV median | MP3 best | MP3 median | frames decoded (WAV / MP3) |",
             "|---|---:|---:|---:|---:|---:|"]
    for name in ("Festina", "pydub (ffmpeg)", "pygame.mixer (SDL_mixer)"):
        w, m = decode[(name, "WAV")], decode[(name, "MP3")]
        if isinstance(w, str) or isinstance(m, str):
            lines.append(peers.missing_row(name, w if isinstance(w, str) else m, 5))
        else:
            lines.append(f"| {name} | {w[0]:.0f} ms | {w[1]:.0f} ms | {m[0]:.0f} ms | {m[1]:.0f} ms | "
                         f"{int(w[2]):,} / {int(m[2]):,} |")
    lines += ["", f"Latency from play() to the first samples at the sink, {args.plays} plays:", "",
              "| Player | play() to the sample seen at the sink, best | median | queued ahead in the stream, best | median |",
              "|---|---:|---:|---:|---:|"]
    for name, r in latency.items():
        if isinstance(r, str):
            lines.append(peers.missing_row(name, r, 4))
        else:
            lines.append(f"| {name} | {r[0]:.1f} ms | {r[1]:.1f} ms | {r[2]:.1f} ms | {r[3]:.1f} ms |")
    lines += ["", "Decode times are the whole file into memory, best and median of the timed runs after one untimed "
              "decode. pygame.mixer's latency is measured through SDL's disk audio driver (512-frame buffers, real-time "
              "pacing): `play() to the sample seen` is wall time until the first non-zero sample of the clip appears in "
              "the driver's output file; `queued ahead` is that sample's position in the stream after the play() "
              "position. pydub has no player without a sound device, so no latency row. Festina's times come "
              "from its audio trace (FESTINA_AUDIO_TRACE): a load is timed from before the file is read to the "
              "decoded clip; its null sink pulls 512-frame periods in real time and keeps nothing queued ahead, "
              "so a new clip starts at the next frame it pulls and `play() to the sample` is the wait for that "
              "pull (at most one period, less when the busy machine had the sink thread waiting for a core); "
              "a sound card adds its own buffer on top (rodio asks cpal for about 50 ms)."]
    peers.publish(TITLE, lines, not args.no_write)


if __name__ == "__main__":
    main()
