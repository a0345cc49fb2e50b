// golden: skip
// (A server: festina-cli/tests/net/examples.rs runs it with a TLS client.)
//
// Hello over HTTPS. It needs a certificate and its private key in one PEM
// file; for a try on this machine, make a self-signed one:
//
//     openssl req -x509 -newkey ec -pkeyopt ec_paramgen_curve:prime256v1 \
//         -nodes -keyout key.pem -out cert.pem -days 30 -subj /CN=localhost
//     cat cert.pem key.pem > server.pem
//     festina examples/tls_hello.f 8443 server.pem
//     curl -k https://localhost:8443/world
int port = argv.length > 1 ? argv[1].toInt() : 8443
blob key = argv.length > 2 ? argv[2] : 'server.pem'

on request(req:http) {
    url u = parseURL(req.url)
    req.send({'body': `Hello over ${u.protocol} ${u.pathname}`})
}

openSecurePort(port, key)
log(`serving https://localhost:${port}/`)
