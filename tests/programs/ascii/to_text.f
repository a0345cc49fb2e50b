// §8.5 ascii.toText() copies into a text; text and ascii stay distinct types
ascii a = 'code'
text t = a.toText()
log(t + '!')
log(typeof t)
log(t.length)
