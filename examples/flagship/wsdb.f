// SQLite behind a WebSocket: each reading sent to /db is stored and
// answered with the latest ten rows, newest first (README.md).
struct Reading {
    id:int  // the rowid in replies; ignored in messages
    sensor:text
    value:float
}

table Readings {
    sensor:text
    value:float
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
    Reading r  // a message that is not JSON stores an empty reading
    try {
        r = msg.toText().toStruct(Reading)
    } catch (e:text) {}
    sqlite('INSERT INTO Readings (sensor, value) VALUES (?, ?)', [r.sensor, r.value])
    arr[Reading] recent = sqlite('SELECT rowid AS id, sensor, value FROM Readings ORDER BY rowid DESC LIMIT 10')
    s.send(recent)
}

on socketClose(s:socket) {
    log('data source disconnected')
}

openPort(environment.PORT == null ? 9090 : environment.PORT.toInt())
