// §7.1 line feeds inside brackets and braces of a literal do not end the statement
struct P {
    x:int
    y:int
}
arr[int] xs = [
    1,
    2,
    3
]
P p = {
    'x': 4,
    'y': 5
}
map[text] m = {
    'k': 'v'
}
log(xs)
log(p)
log(m)
