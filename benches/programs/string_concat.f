// Repeated appends to one text: s = s + piece.
text s = ''
for int i = 0, i < 15000, i++ {
    s = s + 'abcdefghij'
}
log(s.length)
