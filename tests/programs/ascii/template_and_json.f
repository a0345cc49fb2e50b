// §8.21 ascii renders as its string, in templates and inside JSON
struct Tag {
    code:ascii
}
ascii p = 'ab'
ascii q = 'cd'
arr[ascii] xs = [p, q]
Tag t
t.code = q
log(`<${p}>`)
log(xs)
log(t)
