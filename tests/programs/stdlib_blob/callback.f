// path.callback(fn) yields an empty blob at once, loads on a background
// worker, then runs fn on the main thread with the same value filled in
// (§12.5). Loads are chained so the output order is deterministic.
blob early = null

void func second(b:blob) {
    log(`second: exists=${b.exists()} length=${b.length}`)
    blob 'fixture.txt'.callback(third)
}

void func third(b:blob) {
    log(`third (anonymous form): ${b.slice(0, 5)}`)
}

void func first(b:blob) {
    log(`first: ${b.length} bytes`)
    // The value handed out earlier is the one that was filled in.
    log(`same value: ${early.length}`)
    early = 'no_such_file.bin'.callback(second)
}

early = 'fixture.txt'.callback(first)
log(`right away: ${early.length}`)
log('top level done')
