// §16.3 ascii.charCodeAt(i): the byte as an int, null out of range
ascii s = 'Az_9 ~'
for int i = 0, i < s.length, i++ {
    log(s.charCodeAt(i))
}
log(s.charCodeAt(-1) == null)
log(s.charCodeAt(6) == null)
ascii none
log(none.charCodeAt(0) == null)
int c = s.charCodeAt(1) + 1
log(c)
