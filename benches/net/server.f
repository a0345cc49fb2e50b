// The Festina side of the HTTP server benchmark (benches/net/run.py,
// benches/README.md):
//
//     FESTINA_HTTP_HOST=127.0.0.1 festina benches/net/server.f PORT
//
// It listens on PORT (127.0.0.1 only with FESTINA_HTTP_HOST, as the
// runner starts it) and answers, byte for byte like every peer:
//     GET /      200  content-type text/plain; charset=utf-8   Hello, World!
//     GET /json  200  content-type application/json            {"message":"Hello, World!","id":1}
// with `/json` rendered from a struct on every request, and anything else
// 404. The route is the path of the request's URL, as an application
// would take it.
struct Message {
    message:text
    id:int
}

on request(req:http) {
    text path = parseURL(req.url).pathname
    if path == '/' {
        req.send({'body': 'Hello, World!'})
    } else if path == '/json' {
        Message m = {'message': 'Hello, World!', 'id': 1}
        req.send({'body': m})
    } else {
        req.send({'code': 404, 'body': 'Not Found'})
    }
}

openPort(argv.length > 1 ? argv[1].toInt() : 8080)
