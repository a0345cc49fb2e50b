on request(req:http) {
    log(req)
}
on upgrade(s:socket) {
    log(`${s}`)
}
