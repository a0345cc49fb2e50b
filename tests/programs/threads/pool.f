// A pool (§20.6): each instance has its own state; NAME[i] addresses one
// instance, an out-of-range index is a no-op whose arguments are not
// evaluated; a send without an index is routed to some instance.
thread workers[3] {
    int handled = 0
    on message(worker: thread, n: int) {
        handled = handled + 1
        worker.reply(n * n + handled * 0)
    }
    on exit(code: int) {
        log(`instance exit ${code}`)
    }
}

int func noisy() {
    log('this argument must not be evaluated')
    return 1
}

int total = 0
int replies = 0
void func got(n: int) {
    total = total + n
    replies = replies + 1
    if replies == 13 {
        log(`13 replies, sum of squares ${total}`)
    }
}

for int i = 0, i < 3, i++ {
    workers[i].postMessage(i).callback(got)
}
workers[3].postMessage(noisy()).callback(got)
workers[-1].postMessage(noisy()).callback(got)
log(`alive: ${workers[0].isAlive()} ${workers[2].isAlive()} out of range: ${workers[3].isAlive()}`)
for int i = 3, i < 13, i++ {
    workers.postMessage(i).callback(got)
}
