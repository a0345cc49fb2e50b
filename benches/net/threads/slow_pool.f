// The /slow benchmark's pooled server (benches/net/README.md): `/` is
// answered by main as in slow_single.f; `/slow` is handed to an idle
// instance of `pool[]` (one per CPU, §20.6), which computes the same
// hash there, so requests are computed in parallel.
//     festina slow_pool.f PORT
thread pool[] {
    text func slow() {
        int h = 7
        for int i = 0, i < 2000000, i++ {
            h = (h * 31 + i) % 1000000007
        }
        return `${h}`
    }
    on request(req: http) {
        req.send({'body': slow()})
    }
}

on request(req: http?) {
    if parseURL(req.url).pathname == '/slow' {
        pool.giveRequest(req)
    } else {
        req.send({'body': 'Hello, World!'})
    }
}
openPort(argv[1].toInt())
