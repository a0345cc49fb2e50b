// The answers of §19.3 and the socket methods of §19.4 with wrong
// arguments or used for a value they do not have.
on request(req:http) {
    req.redirect(5)
    req.send('x')
    bool q = req.ok()
    req.upgrade(1)
    int n = req.toBlob()
}
on socketClose(s:socket) {
    s.close(1000)
    text st = s.state
    bool sent = s.send('bye')
}
