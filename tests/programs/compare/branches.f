// §9.8 a comparison used as a condition (compiled to one compare-and-branch
// instruction) decides exactly as the same comparison used as a value: each
// line prints the value, then what `if` and `?:` chose.
text func branch(v:bool, taken:bool, other:bool) {
    return `${v} ${taken} ${other}`
}
int zero = 0
int a = 3
int b = 7
int n = null
float x = 1.5
float nan = 0.0 / zero
float fnull = null
// ints in registers, both polarities
log(branch(a < b, a < b ? true : false, !(a < b) ? false : true))
log(branch(a <= b, a <= b ? true : false, !(a <= b) ? false : true))
log(branch(a > b, a > b ? true : false, !(a > b) ? false : true))
log(branch(a >= b, a >= b ? true : false, !(a >= b) ? false : true))
log(branch(a == a, a == a ? true : false, !(a == a) ? false : true))
log(branch(a != a, a != a ? true : false, !(a != a) ? false : true))
// small literals as immediates, on either side
log(branch(a < 3, a < 3 ? true : false, !(a < 3) ? false : true))
log(branch(a <= 3, a <= 3 ? true : false, !(a <= 3) ? false : true))
log(branch(a > 2, a > 2 ? true : false, !(a > 2) ? false : true))
log(branch(a >= 4, a >= 4 ? true : false, !(a >= 4) ? false : true))
log(branch(a == 3, a == 3 ? true : false, !(a == 3) ? false : true))
log(branch(a != 3, a != 3 ? true : false, !(a != 3) ? false : true))
log(branch(2 < a, 2 < a ? true : false, !(2 < a) ? false : true))
log(branch(-5 >= a, -5 >= a ? true : false, !(-5 >= a) ? false : true))
// a literal too large for an immediate
log(branch(a < 100000, a < 100000 ? true : false, !(a < 100000) ? false : true))
// a null int: equal to null only, ordered as 0
log(branch(n == 0, n == 0 ? true : false, !(n == 0) ? false : true))
log(branch(n != 0, n != 0 ? true : false, !(n != 0) ? false : true))
log(branch(n == null, n == null ? true : false, !(n == null) ? false : true))
log(branch(n < 1, n < 1 ? true : false, !(n < 1) ? false : true))
log(branch(n == a, n == a ? true : false, !(n == a) ? false : true))
// floats, with NaN and the null float
log(branch(x < 2.0, x < 2.0 ? true : false, !(x < 2.0) ? false : true))
log(branch(x >= 2.0, x >= 2.0 ? true : false, !(x >= 2.0) ? false : true))
log(branch(nan < x, nan < x ? true : false, !(nan < x) ? false : true))
log(branch(nan >= x, nan >= x ? true : false, !(nan >= x) ? false : true))
log(branch(x <= nan, x <= nan ? true : false, !(x <= nan) ? false : true))
log(branch(x > fnull, x > fnull ? true : false, !(x > fnull) ? false : true))
// loops and short-circuit conditions
int count = 0
for int i = 10, i >= 0, i = i - 3 {
    count++
}
log(count)
int k = 0
while !(k >= 5) && k != 3 {
    k++
}
log(k)
if a < b || n == 1 {
    log('or taken')
}
if a > b && n == null {
    log('and taken')
} else {
    log('and not taken')
}
