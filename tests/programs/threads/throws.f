// An uncaught throw in a thread is reported like the main program's and
// ends the process with status 1 (§20.2, §14).
thread fragile {
    on message(worker: thread, n: int) {
        if n > 1 {
            throw `too big: ${n}`
        }
    }
}
fragile.postMessage(1)
fragile.drain()
log('first message handled')
fragile.postMessage(2)
fragile.drain()
log('never printed')
