// The Festina side of the WebSocket echo benchmark (benches/net/run.py,
// benches/net/README.md). The HTTP battery (issue 13) provides this
// program; until WebSocket upgrades work the runner reports the Festina
// row as "not available" with the reason.
//
//     festina benches/net/ws_echo.f PORT
//
// It must listen on 127.0.0.1:PORT (loopback only), upgrade every
// request to a WebSocket and send every message back on the socket it
// came from (the load client compares payload bytes, so a binary echo of
// a text message counts).
on request(req:http) {
    req.upgrade()
}

on socketMessage(s:socket, msg:blob) {
    s.send(msg)
}

openPort(argv.length > 1 ? argv[1].toInt() : 8080)
