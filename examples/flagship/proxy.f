// Reverse proxy: every request is forwarded to $UPSTREAM by a pool of
// four worker threads over keep-alive connections (README.md).
thread workers[4] {
    text UPSTREAM = environment.UPSTREAM == null ? 'http://127.0.0.1:9000' : environment.UPSTREAM

    on request(req:http) {
        url u = parseURL(req.url)
        http upstream = {
            'url': `${UPSTREAM}${u.pathname}`,
            'method': req.method,
            'headers': req.headers,
            'body': req.toBlob(),
        }
        try {
            upstream.send()
            req.send({
                'code': upstream.code,
                'headers': upstream.headers,
                'body': upstream.toBlob(),
            })
        } catch (error:text) {
            req.send({'code': 502, 'body': `bad gateway: ${error}`})
        }
    }
}

on request use workers

openPort(environment.PORT == null ? 8080 : environment.PORT.toInt())
