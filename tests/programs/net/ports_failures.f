// openPort and closePort are silent no-ops on failure (§19.1): a port out
// of range opens nothing and closing a port that is not open does nothing,
// so the program carries on. An unparseable key blob for openSecurePort is
// a runtime failure (§19.8).
on request(req:http) {
    req.ok()
}
openPort(-1)
openPort(70000)
closePort(12345)
log('no listener opened')
blob key = 'not a pem'
openSecurePort(0, key)
log('never printed')
