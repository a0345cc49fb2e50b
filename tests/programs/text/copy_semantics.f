// §8.4/§13.2 every text binding owns its copy; assignment never shares
text a = 'one'
text b = a
a = 'two'
log(a)
log(b)
void func change(s:text) {
    s = s + ' changed'
    log(s)
}
text c = 'three'
change(c)
log(c)
