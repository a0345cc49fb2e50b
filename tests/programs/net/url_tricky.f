// parseURL (§19.6) over a table of tricky URLs: IPv6 hosts, user
// information, an empty path, a query name without a value, fragments,
// `%` escapes (bad ones kept), non-ASCII, an empty port; and the texts
// it throws on.
void func show(t:text) {
    try {
        url u = parseURL(t)
        log(`${t} => ${u.protocol}|${u.username}|${u.password}|${u.hostname}|${u.port}|${u.pathname}|${u.searchParams}|${u.hash}`)
    } catch (e:text) {
        log(`${t} => throws: ${e}`)
    }
}
show('http://example.com')
show('https://[2001:db8::1]:8443/v6?x=1')
show('http://[::ffff:127.0.0.1]/')
show('ftp://anna:p%40ss@files.example.org/pub/')
show('http://user@host/')
show('http://a@b@c/')
show('http://h:/empty-port')
show('http://h?flag&empty=&x=1&x=2')
show('http://h/p?q=%E2%82%AC+%26+more%21&bad=%zz%4')
show('http://h/a%20b/#frag?not-a-query')
show('http://h#')
show('http://ünïcödé.example/päth?ключ=значение')
show('HTTP://UPPER.Example.COM:80/Path')
show('example.com/no-scheme')
show('http://h:80x/')
show('http://h:65536/')
show('http://[::1/')
show('')
