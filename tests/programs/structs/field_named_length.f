// §9.2 a struct field named length is an ordinary field
struct Rope {
    length:int
    label:text
}
Rope r
r.length = 12
r.label = 'abc'
log(r.length)
log(r.label.length)
log(r)
