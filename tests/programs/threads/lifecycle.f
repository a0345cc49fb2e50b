// kill (§20.2) runs on exit(0), drops what is queued and returns once
// the thread has stopped; live restarts it with fresh state; drain waits
// for what is queued.
thread box {
    int count = 0
    on load() {
        count = 100
    }
    on message(worker: thread, n: int) {
        count = count + n
        postMessage(count)
    }
    on exit(code: int) {
        log(`box exit ${code} at ${count}`)
    }
}

arr[int] got = []
on message(worker: thread, n: int) {
    got.push(n)
    if got.length == 3 {
        log(`main received ${got}`)
    }
}

box.postMessage(1)
box.postMessage(2)
box.drain()
log(`drained, alive ${box.isAlive()}`)
box.kill()
log(`killed, alive ${box.isAlive()}`)
box.postMessage(50)
box.live(void (restarted: bool) => log(`live: restarted ${restarted}`))
box.live(void (restarted: bool) => log(`live again: restarted ${restarted}`))
box.postMessage(3)
box.drain()
log(`alive ${box.isAlive()}`)
