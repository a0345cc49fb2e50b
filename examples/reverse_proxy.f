// golden: skip
// (A server: festina-cli/tests/net/client.rs runs it against a real upstream.)
//
// A single-threaded reverse proxy: every request is forwarded, method,
// path and query, headers and body, to the upstream, and the upstream's
// status, headers and body go back to the client. When the upstream
// cannot be reached (or answers garbage), the client gets a 502 with the
// error. Requests to the upstream reuse one keep-alive connection.
//
//     festina examples/reverse_proxy.f 8080 http://127.0.0.1:9000
//     curl -i http://127.0.0.1:8080/anything?x=1
//
// The proxy waits for each upstream answer (a blocking send) before it
// takes the next request; threads (§20.9) spread the load.
int port = argv.length > 1 ? argv[1].toInt() : 8080
text upstream = argv.length > 2 ? argv[2] : 'http://127.0.0.1:9000'

// The path and query of a received request's absolute URL.
text func pathOf(u:text) {
    int scheme = u.indexOf('://')
    int slash = u.slice(scheme + 3, u.length).indexOf('/')
    if slash < 0 {
        return '/'
    }
    return u.slice(scheme + 3 + slash, u.length)
}

on request(req:http) {
    http out = {
        'url': `${upstream}${pathOf(req.url)}`,
        'method': req.method,
        'headers': req.headers,
        'body': req.toBlob(),
    }
    try {
        out.send()
    } catch (e:text) {
        req.send({'code': 502, 'body': `bad gateway: ${e}`})
        return
    }
    req.send(out)
}

openPort(port)
log(`proxying http://127.0.0.1:${port}/ to ${upstream}`)
