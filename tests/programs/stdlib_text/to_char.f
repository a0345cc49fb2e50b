// §16.3 int.toChar(): the UTF-8 text of a code point, or null
log(65.toChar())
log(233.toChar())
log(128512.toChar())
int n = 97
log(n.toChar())
log(1114111.toChar().length)
log(57344.toChar().length)
log((-1).toChar() == null)
log(1114112.toChar() == null)
log(55296.toChar() == null)
log(57343.toChar() == null)
log(0.toChar().length)
text word = ''
arr[int] codes = [70, 101, 115, 116, 105, 110, 97]
for int i = 0, i < codes.length, i++ {
    word = word + codes[i].toChar()
}
log(word)
