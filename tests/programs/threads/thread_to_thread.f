// One thread messages another (§20.4): the reply's callback runs on the
// sending worker's thread, which then reports to main.
thread doubler {
    on message(from: thread, n: int) {
        from.reply(n * 2)
    }
}
thread asker {
    int got = 0
    on message(from: thread, n: int) {
        doubler.postMessage(n).callback(void (d: int) => postMessage(`asker got ${d} from doubler`))
    }
}
on message(from: thread, t: text) {
    log(t)
}
asker.postMessage(21)
