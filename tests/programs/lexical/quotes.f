// §7.5.2 single- and double-quoted strings are equivalent
text a = 'same'
text b = "same"
log(a == b)
log("it's")
log('say "hi"')
log("")
log('end')
