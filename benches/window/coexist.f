// Coexistence of a window and timers (§19.7), Festina only
// (benches/window/coexist.py runs it): a chain of TICKS 10 ms
// setTimeout calls, each armed by the one before, records how late each
// fires against its own deadline (now() has whole milliseconds), then
// prints `late_ms mean <m> max <x> ticks <n>`.
//
//     festina benches/window/coexist.f MODE [TICKS]
//
// MODE `none`: no window. `window`: a window is open (its frame tick
// and the X events injected by the runner run beside the timer).
// `render`: also a full 800x600 frame presented on every tick.

text mode = argv.length > 1 ? argv[1] : 'none'
int ticks = argv.length > 2 ? argv[2].toInt() : 300
color sky = 'skyblue'
color sun = 'gold'
int n = 0
int total = 0
int worst = 0
int due = 0

if mode != 'none' {
    drawRect(0, 0, 800, 600, sky)
    render()
}

void func tick() {
    n++
    int late = now() - due
    if late < 0 {
        late = 0
    }
    total = total + late
    if late > worst {
        worst = late
    }
    if mode == 'render' {
        drawRect(0, 0, 800, 600, sky)
        drawCircle(n % 800, 300, 40, sun)
        render()
    }
    if n == ticks {
        log(`late_ms mean ${total * 1.0 / ticks} max ${worst} ticks ${ticks}`)
        close(0)
    }
    due = now() + 10
    setTimeout(tick, 10)
}

due = now() + 10
setTimeout(tick, 10)
