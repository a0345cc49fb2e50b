// Background loads (§12.5): the clip is silent until the callback runs
// with the same value; a load that fails leaves it silent and still
// calls back. The loads are chained so that the output has one order.
aud bad = 'truncated.wav'.callback(gotBad)
log(`now: ${bad.isPlaying()}`)

void func gotBad(a:aud) {
    // A silent clip plays on a channel and has finished at once.
    int ch = a.play()
    log(`bad: channel ${ch}, playing ${a.isPlaying()}`)
    aud 'short.wav'.callback(gotGood)
}

void func gotGood(a:aud) {
    log(`good: playing ${a.isPlaying()}`)
    log(`good: channel ${a.playLoop()}, playing ${a.isPlaying()}`)
    a.stop()
    log(`good: stopped, playing ${a.isPlaying()}`)
}
