// A local or parameter may take the name of a built-in function and
// shadows it in its scope, as the reference compiler allows (§6.7 says
// otherwise; README, differences). Outside that scope the built-in is
// as before.
void func zoom(scale:float) {
    log(scale * 2)
}
zoom(1.5)
int func closeness(close:int, now:int) {
    return close - now
}
log(closeness(10, 4))
if true {
    arr[text] ls = ['a', 'b']
    log(ls.length)
    int mkdir = 3
    log(mkdir)
}
log(now() > 0)
// A local named like a user function reads as itself.
text func tag(s:text) { return '[' + s + ']' }
int k = 1
if k == 1 {
    map[int] tag = {}
    tag['x'] = 1
    log(tag.keys().length)
}
log(tag('ok'))
