// §8.5 text.toAscii(): null when a character is not ASCII
ascii a = 'hello'.toAscii()
log(a)
log(a.length)
log(typeof a)
log('héllo'.toAscii() == null)
log('tab	and ~'.toAscii())
log(''.toAscii().length)
