// A non-void function whose body can end without `return` (§10.8 and
// §11.1 are silent; the reference compiles it): it returns the scalar
// zero of its type, `0`, `0.0` or `false`, and `null` for other types.
int func f(b:bool) {
    if b {
        return 1
    }
}
float func g() {
    if false {
        return 1.5
    }
}
bool func h() {
    while false {
        return true
    }
}
text func t() {
    if false {
        return 'x'
    }
}
struct P {
    x:int
}
P func p() {
    P q = {'x': 1}
    if false {
        return q
    }
}
log(f(true))
log(f(false))
log(f(false) + 1)
log(g())
log(h())
log(t() == null)
log(p() == null)
