on request(req:http) {
    req.code = 404
    req.url = 'http://x/'
    req.nope = 1
}
url u = parseURL('http://x/')
u.port = 80
