// The /slow benchmark's single-loop server (benches/net/README.md): `/`
// answers a fixed text; `/slow` computes about 2,000,000 iterations of a
// polynomial hash on the one event loop before answering.
//     festina slow_single.f PORT
text func slow() {
    int h = 7
    for int i = 0, i < 2000000, i++ {
        h = (h * 31 + i) % 1000000007
    }
    return `${h}`
}

on request(req: http) {
    if parseURL(req.url).pathname == '/slow' {
        req.send({'body': slow()})
    } else {
        req.send({'body': 'Hello, World!'})
    }
}
openPort(argv[1].toInt())
