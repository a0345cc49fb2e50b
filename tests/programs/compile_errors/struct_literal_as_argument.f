// expect: 9:10 cannot assign value of type map[int] to P (struct literals are allowed only in declarations and assignments)
// §8.9.4 a function argument is not a struct-literal position
struct P {
    x:int
}
int func getX(p:P) {
    return p.x
}
log(getX({'x': 1}))
