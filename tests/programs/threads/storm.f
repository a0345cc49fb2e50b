// 100,000 messages from one sender arrive in order and none is lost.
thread sink {
    int expected = 0
    int sum = 0
    bool ordered = true
    on message(worker: thread, n: int) {
        if n != expected {
            ordered = false
        }
        expected = expected + 1
        sum = sum + n
        if expected == 100000 {
            postMessage(`received ${expected}, in order: ${ordered}, sum ${sum}`)
        }
    }
}

on message(worker: thread, report: text) {
    log(`main: ${report} (from main: ${worker.main})`)
}

for int i = 0, i < 100000, i++ {
    sink.postMessage(i)
}
log('all sent')
