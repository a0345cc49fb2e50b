// A null text receiver reads as the empty text (as .length reads 0)
text s = null
log(`[${s.trim()}]`)
log(s.split(','))
log(s.split('').length)
log(s.charCodeAt(0) == null)
log(`[${s.replace('a', 'b')}]`)
log(s.toAscii().length)
log(s.length)
