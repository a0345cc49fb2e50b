// The Festina side of the WebSocket echo benchmark (benches/net/run.py,
// benches/README.md):
//
//     FESTINA_HTTP_HOST=127.0.0.1 festina benches/net/ws_echo.f PORT
//
// It upgrades every request to a WebSocket and sends every message back
// on the socket it came from (a blob goes back as a binary message: the
// load client compares payload bytes).
on request(req:http) {
    req.upgrade()
}

on socketMessage(s:socket, msg:blob) {
    s.send(msg)
}

openPort(argv.length > 1 ? argv[1].toInt() : 8080)
