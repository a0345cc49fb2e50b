// §8.4 s[i] yields the i-th code point as a one-character text
text s = 'héllo'
log(s[0])
log(s[1])
log(s[4])
text e = 'a😀b'
log(e[1])
log(e[2])
text cjk = '日本語'
log(cjk[2] + cjk[0])
log(s[1].length)
log(typeof s[0])
