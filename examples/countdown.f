// countdown.f: a countdown driven by timers (§12.4).
//
// Top-level code only arms an interval; the event loop then runs the
// callbacks until nothing is pending, and the program exits 0 (§12.2).
// Press Ctrl-C during the countdown: `on exit` runs with 130 (§12.3).

int remaining = 5
int ticker = 0
int started = now()

on exit(code:int) {
    log(`countdown aborted (exit code ${code})`)
}

void func tick() {
    log(`${remaining}...`)
    remaining--
    if remaining == 0 {
        clearInterval(ticker)
        setTimeout(liftoff, 100)
    }
}

void func liftoff() {
    log('Liftoff!')
    // The clock agrees: five ticks and a pause of 100 ms each.
    log(`at least 600 ms later: ${now() - started >= 600}`)
}

ticker = setInterval(tick, 100)
log('Counting down from 5')
