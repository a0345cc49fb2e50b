// http values built by literals (§9.1.4, §19.2), without a network: the
// fields, the bodies and their text and bytes, and answers that do nothing
// on a value that is not a received request (§19.3).
struct Point {
    x:int
    y:int
}

void func done(r:http) {
    log('never called here')
}

http empty = {}
log(`[${empty.url}] [${empty.method}] ${empty.code == null} ${empty.headers.keys().length} ${empty.callback == null}`)
log(`[${empty.toText()}] ${empty.toBlob().length}`)

map[text] h = {'Content-Type': 'text/html', 'x-a': '1'}
http full = {'url': 'http://example.com/a?b=1', 'method': 'POST', 'code': 201, 'headers': h, 'body': 'héllo', 'callback': done}
log(`${full.url} ${full.method} ${full.code} ${full.headers['x-a']} ${full.callback == null}`)
log(`${full.toText()} ${full.toBlob().length}`)
// The headers map is the literal's own (maps are shared).
h['x-b'] = '2'
log(full.headers['x-b'])

Point p = {'x': 1, 'y': 2}
arr[int] xs = [3, 4]
http a = {'body': p}
http b = {'body': xs}
http c = {'body': 42}
http d = {'body': 2.5}
http e = {'body': true}
blob bytes = 'http_values.f'
http f = {'body': bytes}
log(`${a.toText()} ${b.toText()} ${c.toText()} ${d.toText()} ${e.toText()} ${f.toBlob().length == bytes.length}`)
text url = 'http://x/'
text method = 'GET'
http g = {url, method}
log(`${g.url} ${g.method}`)

// Answers on a value that is not a received request do nothing.
full.ok()
full.redirect('/elsewhere')
full.send(a)
full.upgrade()
full.send({'code': 500})
log(`${full.code} ${full.toText()}`)
