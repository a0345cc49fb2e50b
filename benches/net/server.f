// The Festina side of the HTTP server benchmark (benches/net/run.py,
// benches/net/README.md). The HTTP battery (issue 13) provides this
// program; until `openPort` serves requests the runner reports the Festina
// row as "not available" with the reason, and measures the peers alone.
//
//     festina benches/net/server.f PORT
//
// It must listen on 127.0.0.1:PORT (loopback only) and answer, byte for
// byte like every peer:
//     GET /      200  content-type text/plain; charset=utf-8   Hello, World!
//     GET /json  200  content-type application/json            {"message":"Hello, World!","id":1}
// with `/json` rendered from a struct on every request, and anything else
// 404.
struct Message {
    message:text
    id:int
}

on request(req:http) {
    if req.url == '/' {
        req.send({'code': 200, 'body': 'Hello, World!'})
    } else if req.url == '/json' {
        Message m = {'message': 'Hello, World!', 'id': 1}
        req.send({'code': 200, 'body': m})
    } else {
        req.send({'code': 404, 'body': 'Not Found'})
    }
}

openPort(argv.length > 1 ? argv[1].toInt() : 8080)
