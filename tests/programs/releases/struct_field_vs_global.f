// `p.x < g` and friends inside a function, with `p` and `g` globals:
// reading `p` needs a temporary whose release must not clobber `g`.
struct R {
    r:int
}
struct Q {
    r:R
}
struct P {
    x:int
    q:Q
}
P p = {'x': 1}
int g = 3
text s = 'a'
int func h(a:int, b:int) {
    return a + b
}
void func probe() {
    if p.x < g { log('less') } else { log('WRONG') }
    if p.x == g { log('WRONG') } else { log('not equal') }
    bool b = p.x < g
    log(b)
    log(h(p.q.r.r, s == 'a' ? 10 : 20))
    log(h(p.x, s != 'a' ? 10 : 20))
    log(h(p.q.r.r, s == 'a' && p.x < g ? 1 : 2))
    log(s == 'a' || p.x > g)
    log(p.x < g && s == 'b')
}
probe()
