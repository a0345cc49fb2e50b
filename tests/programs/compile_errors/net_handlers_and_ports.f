// The network handlers' parameter lists (§11.5, §19.1, §19.4), one handler
// per event, and the argument types of openPort, openSecurePort and
// closePort (§19.1, §19.8), which answer nothing.
on request(r:int) {
}
on socketMessage(s:socket, m:text) {
}
on upgrade() {
}
on socketClose(s:socket, code:int) {
}
openPort('80')
openSecurePort(8443)
openSecurePort(8443, 'key.pem')
closePort()
bool b = openPort(1)
on request(req:http) {
}
