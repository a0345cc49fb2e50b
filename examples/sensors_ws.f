// golden: skip
// (A server: festina-cli/tests/net/examples.rs runs it with real clients.)
//
// SQLite behind a WebSocket: a data source connects to /db and sends
// readings as JSON objects, {"sensor": "temp-1", "value": 21.4}; each is
// stored in sensors.sqlite and answered with the latest ten rows.
//
//     festina examples/sensors_ws.f 9090
//     python3 -m websockets ws://localhost:9090/db
DatabaseURL = 'sensors.sqlite'

struct Reading {
    sensor:text
    value:float
}

table Readings {
    sensor:text
    value:float
}

struct Problem {
    error:text
}

on request(req:http) {
    if parseURL(req.url).pathname == '/db' {
        req.upgrade()
        return
    }
    req.ok()
}

on upgrade(s:socket) {
    log('data source connected')
}

on socketMessage(s:socket, msg:blob) {
    Reading r
    try {
        r = msg.toText().toStruct(Reading)
    } catch (e:text) {
        Problem p = {'error': e}
        s.send(p)
        return
    }
    sqlite('INSERT INTO Readings (sensor, value) VALUES (?, ?)', [r.sensor, r.value])
    arr[Readings] recent = sqlite('SELECT rowid, sensor, value FROM Readings ORDER BY rowid DESC LIMIT 10')
    s.send(recent)
}

on socketClose(s:socket) {
    log('data source disconnected')
}

int port = argv.length > 1 ? argv[1].toInt() : 9090
openPort(port)
