// The reverse-proxy benchmark's Festina side (benches/net/README.md):
// the threaded reverse proxy of the mission documents. Every accepted
// connection is handed to an idle instance of `workers` (`on request use
// workers`, §20.9), which forwards each request to the upstream over its
// own reused keep-alive connection and relays the answer.
//     festina proxy.f PORT UPSTREAM_URL
thread workers[4] {
    text upstream = argv.length > 2 ? argv[2] : 'http://127.0.0.1:9000'

    on request(req: http) {
        url u = parseURL(req.url)
        http out = {
            'url': `${upstream}${u.pathname}`,
            'method': req.method,
            'headers': req.headers,
            'body': req.toBlob()
        }
        try {
            out.send()
            req.send({
                'code': out.code,
                'headers': out.headers,
                'body': out.toBlob()
            })
        } catch (error: text) {
            req.send({'code': 502, 'body': `bad gateway: ${error}`})
        }
    }
}

on request use workers

openPort(argv[1].toInt())
