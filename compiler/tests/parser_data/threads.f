thread worker {
    DatabaseURL = 'worker.db'
    int count = 0
    on load() { log('started') }
    on message(from:thread, msg:text) {
        count++
        from.postMessage(msg)
    }
    void func helper() { }
}
thread pool[4] {
    on request(req:http?) { req.send({'body': 'hi'}) }
}
thread elastic[] { }
worker.postMessage('go')
pool[0].postMessage('x')
