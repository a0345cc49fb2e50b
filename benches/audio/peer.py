"""Audio benchmark peer (benches/audio/README.md): Python's pydub (ffmpeg)
and pygame.mixer (SDL_mixer) decoding the same files, and pygame.mixer's
latency from play() to the first samples reaching SDL's disk audio driver.

    python3 peer.py decode pydub|pygame FILE RUNS
        prints `decode_ms <min> <median> frames <n> rate <hz> channels <n>`
    python3 peer.py latency CLICK.wav RUNS SINK.raw
        prints `latency_ms wall <min> <median> stream <min> <median>`

decode: one untimed decode, then RUNS timed ones of the whole file into
memory (pydub: AudioSegment.from_file, which runs ffmpeg for MP3 and reads
WAV itself; pygame: mixer.Sound, decoded by SDL_mixer into the mixer's
format, 44,100 Hz 16-bit stereo, with SDL's dummy audio driver).

latency: SDL_AUDIODRIVER=disk writes the mixed output stream to SINK.raw
(44,100 Hz, 16-bit stereo, 512-frame buffers, paced in real time by the
driver). After the stream has run for 0.5 s, for each of RUNS plays of a
clip whose first sample is non-zero: note the file size and the time,
call play(), poll the file until a non-zero sample appears past that size.
`wall` is play() to seeing that sample in the file; `stream` is where the
sample sits in the stream after the play() position, as time (the audio
queued ahead of it).
"""

import os
import statistics
import sys
import time

os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")


def decode(lib, path, runs):
    if lib == "pydub":
        from pydub import AudioSegment

        def once():
            seg = AudioSegment.from_file(path)
            return int(seg.frame_count()), seg.frame_rate, seg.channels
    else:
        os.environ["SDL_AUDIODRIVER"] = "dummy"
        import pygame

        pygame.mixer.init(44100, -16, 2)
        freq, _, channels = pygame.mixer.get_init()

        def once():
            snd = pygame.mixer.Sound(path)
            return len(snd.get_raw()) // (2 * channels), freq, channels
    once()
    times = []
    for _ in range(runs):
        t0 = time.perf_counter()
        frames, rate, channels = once()
        times.append((time.perf_counter() - t0) * 1000)
    print(f"decode_ms {min(times):.2f} {statistics.median(times):.2f} frames {frames} rate {rate} channels {channels}")


def latency(click, runs, sink):
    os.environ["SDL_AUDIODRIVER"] = "disk"
    os.environ["SDL_DISKAUDIOFILE"] = sink
    import pygame

    pygame.mixer.init(44100, -16, 2, 512)
    snd = pygame.mixer.Sound(click)
    time.sleep(0.5)
    walls, streams = [], []
    with open(sink, "rb") as f:
        for _ in range(runs):
            start = os.path.getsize(sink) // 4 * 4
            t0 = time.perf_counter()
            channel = snd.play()
            f.seek(start)
            pos = start
            found = None
            while found is None and time.perf_counter() - t0 < 5:
                chunk = f.read()
                if not chunk:
                    time.sleep(0.0002)
                    continue
                usable = len(chunk) // 4 * 4
                for i in range(0, usable, 4):
                    if chunk[i:i + 4] != b"\0\0\0\0":
                        found = pos + i
                        break
                pos += usable
                f.seek(pos)
            t1 = time.perf_counter()
            if found is None:
                sys.exit("no sample reached the disk sink within 5 s")
            walls.append((t1 - t0) * 1000)
            streams.append((found - start) / 4 / 44100 * 1000)
            channel.stop()
            time.sleep(0.3)
    pygame.mixer.quit()
    print(f"latency_ms wall {min(walls):.2f} {statistics.median(walls):.2f} "
          f"stream {min(streams):.2f} {statistics.median(streams):.2f}")


if __name__ == "__main__":
    if sys.argv[1] == "decode":
        decode(sys.argv[2], sys.argv[3], int(sys.argv[4]))
    elif sys.argv[1] == "latency":
        latency(sys.argv[2], int(sys.argv[3]), sys.argv[4])
    else:
        sys.exit(__doc__)
