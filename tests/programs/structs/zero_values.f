// §8.2 never-assigned scalar fields read as their zero values
struct All {
    i:int
    f:float
    b:bool
    t:text
    a:ascii
}
All x
log(x)
log(x.i)
log(x.f)
log(x.b)
log(x.t == null)
