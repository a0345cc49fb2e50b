// String literals where an ascii is expected are converted at compile
// time (§8.5), as the reference compiler accepts: compared with an ascii,
// both arms of a ternary given to an ascii, concatenated with an ascii.
ascii a = 'none'
log(a == 'none')
log('none' == a)
log(a != 'block')
ascii func pick(flag:bool) {
    return flag ? 'yes' : 'no'
}
void func show(x:ascii) {
    log(x)
}
show(true ? 'first' : 'second')
log(pick(false))
bool wide = false
ascii w = wide ? 'wide' : a
log(w)
ascii joined = a + '-suffix'
log(joined)
log(typeof joined)
ascii pre = 'prefix-' + a
log(pre.length)
ascii two = 'x' + 'y'
log(two)
// ascii + text (not a literal) is text: the ascii side is widened.
text t = 'tail'
text mixed = a + t
log(mixed)
log(typeof (t + a))
log(`${a}/${t}`)
// toInt reads like text.toInt().
ascii num = ' -42px'
log(num.toInt())
ascii bad = 'x1'
log(bad.toInt() == null)
