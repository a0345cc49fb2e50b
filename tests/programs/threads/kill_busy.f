// kill() while the thread is busy (§20.2): it waits for the running
// handler, drops what is queued behind it (message 3 never runs), runs
// on exit(0), and returns once the thread has stopped.
thread busy {
    arr[int] handled = []
    on message(sender: thread, n: int) {
        if n == 2 {
            int h = 0
            for int i = 0, i < 3000000, i++ {
                h = (h * 31 + i) % 1000003
            }
        }
        handled.push(n)
    }
    on exit(code: int) {
        log(`exit ${code}: message 1 ${handled.indexOf(1) >= 0}, message 3 ${handled.indexOf(3) >= 0}`)
    }
}

busy.postMessage(1)
busy.drain()
busy.postMessage(2)
busy.postMessage(3)
busy.kill()
log(`killed, alive ${busy.isAlive()}`)
busy.postMessage(4)
busy.drain()
log('a message to a killed thread is dropped')
