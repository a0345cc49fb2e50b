// §8.4 text.charCodeAt(i) counts code points; null out of range
text s = 'aé😀'
log(s.charCodeAt(0))
log(s.charCodeAt(1))
log(s.charCodeAt(2))
log(s.charCodeAt(3) == null)
log(s.charCodeAt(-1) == null)
log(''.charCodeAt(0) == null)
text copy = ''
for int i = 0, i < s.length, i++ {
    copy = copy + s.charCodeAt(i).toChar()
}
log(copy == s)
