// golden: skip
// (A server: festina-cli/tests/net/threads.rs runs it against a real upstream.)
//
// The threaded reverse proxy of the mission documents: every accepted
// connection is handed to an idle instance of `workers` (`on request use
// workers`, §20.9), which forwards each of its requests (method, path,
// headers, body) to the upstream over its own reused keep-alive
// connection and relays the answer; an unreachable upstream gets a 502
// with the error.
//
//     festina examples/threaded_proxy.f 8080 http://127.0.0.1:9000
//     curl -i http://127.0.0.1:8080/anything
thread workers[4] {
    text upstream = argv.length > 2 ? argv[2] : 'http://127.0.0.1:9000'

    on request(req:http) {
        url u = parseURL(req.url)
        http out = {
            'url': `${upstream}${u.pathname}`,
            'method': req.method,
            'headers': req.headers,
            'body': req.toBlob(),
        }
        try {
            out.send()
            req.send({
                'code': out.code,
                'headers': out.headers,
                'body': out.toBlob(),
            })
        } catch (error:text) {
            req.send({'code': 502, 'body': `bad gateway: ${error}`})
        }
    }
}

on request use workers

openPort(argv.length > 1 ? argv[1].toInt() : 8080)
