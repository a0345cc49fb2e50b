// §7.5.2 text cannot hold a NUL, so JSON with \u0000 in a string or key throws.
struct T {
    t:text
}
try {
    T x = '{"t":"a\\u0000b"}'.toStruct(T)
    log(x.t.length)
} catch (e:text) {
    log(e)
}
struct M {
    m:map[int]
}
try {
    M y = '{"m":{"a\\u0000":1}}'.toStruct(M)
    log(y)
} catch (e:text) {
    log(e)
}
log('done')
