// §19.5 callback mode against the program's own server (§19.1) on one
// event loop: each callback starts the next request; the value is
// overwritten with the response, and a re-send repeats the request.
on request(req:http) {
    url u = parseURL(req.url)
    req.send({'code': u.pathname == '/missing' ? 404 : 200, 'body': `${req.method} ${u.pathname} ${u.searchParams['n']} [${req.toText()}]`, 'headers': {'x-seen': req.headers['x-test']}})
}
openPort(28414)

int step = 0
http again = {'url': 'http://127.0.0.1:28414/again?n=2', 'method': 'PUT', 'body': 'same', 'callback': next}
void func next(r:http) {
    log(`${step}: ${r.code} ${r.headers['x-seen']} ${r.toText()}`)
    step++
    if step == 1 {
        http {'url': 'http://127.0.0.1:28414/json?n=1', 'method': 'POST', 'headers': {'x-test': 'yes'}, 'body': [1, 2, 3], 'callback': next}
    } else if step == 2 {
        again.send()
    } else if step == 3 {
        again.send()
    } else if step == 4 {
        http {'url': 'http://127.0.0.1:28414/missing', 'callback': next}
    } else {
        closePort(28414)
    }
}
http {'url': 'http://127.0.0.1:28414/first', 'callback': next}
log('requests started')
