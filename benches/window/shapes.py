"""Window benchmark peer: a full-window redraw of 2,000 shapes per frame
(1,000 filled rectangles and 1,000 filled circles, the colour set per shape)
with pygame.draw into an 800x600 SDL window, presented with
pygame.display.flip(). benches/window/README.md has the protocol:

    BENCH_START_MS=<epoch ms at launch> python3 shapes.py SECONDS

prints `first_frame_ms <ms from launch to the first presented frame>`,
then, after SECONDS of frames, `frames <n> seconds <s> fps <n/s>`.
"""

import os
import sys
import time

os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")
import pygame  # noqa: E402

W, H = 800, 600
SECONDS = float(sys.argv[1]) if len(sys.argv) > 1 else 5.0
seed = 12345


def rand():
    """The Park-Miller LCG of benches/canvas/scene.html, continued across frames."""
    global seed
    seed = seed * 48271 % 2147483647
    return seed


def frame(screen):
    screen.fill((255, 255, 255))
    for _ in range(1000):
        x, y, w, h = rand() % W, rand() % H, 1 + rand() % 40, 1 + rand() % 40
        pygame.draw.rect(screen, (rand() % 256, rand() % 256, rand() % 256), (x, y, w, h))
    for _ in range(1000):
        x, y, r = rand() % W, rand() % H, 1 + rand() % 20
        pygame.draw.circle(screen, (rand() % 256, rand() % 256, rand() % 256), (x, y), r)
    pygame.display.flip()
    pygame.event.pump()


def main():
    start_ms = float(os.environ.get("BENCH_START_MS", time.time() * 1000))
    pygame.display.init()
    screen = pygame.display.set_mode((W, H))
    pygame.display.set_caption("window benchmark: pygame")
    frame(screen)
    print(f"first_frame_ms {time.time() * 1000 - start_ms:.1f}", flush=True)
    frames, t0 = 0, time.monotonic()
    while time.monotonic() - t0 < SECONDS:
        frame(screen)
        frames += 1
    elapsed = time.monotonic() - t0
    print(f"frames {frames} seconds {elapsed:.3f} fps {frames / elapsed:.2f}", flush=True)
    pygame.quit()


if __name__ == "__main__":
    main()
