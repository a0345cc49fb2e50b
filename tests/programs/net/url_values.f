// parseURL (§19.6): fields, percent-decoded search parameters, and the
// texts it throws on (§14.3).
url u = parseURL('HTTPS://User:Secret@Example.COM:8443/a/b%20c?x=1&y=a+b%21&z&x=2#top')
log(`${u.protocol} ${u.username} ${u.password} ${u.hostname} ${u.port} ${u.pathname} ${u.hash}`)
log(u.searchParams)
log(`${u.searchParams['y']} [${u.searchParams['z']}] ${u.searchParams['nope'] == null}`)
url plain = parseURL('http://localhost')
log(`${plain.pathname} ${plain.port == null} [${plain.hash}] ${plain.searchParams.keys().length}`)
url v6 = parseURL('ws://[::1]:9000/socket')
log(`${v6.hostname} ${v6.port} ${v6.pathname}`)

void func tryParse(t:text) {
    try {
        url x = parseURL(t)
        log(`ok ${x.hostname}`)
    } catch (e:text) {
        log(e)
    }
}
tryParse('example.com/path')
tryParse('http://host:80x/')
tryParse('http://host:70000/')
tryParse('file:///etc/hosts')
