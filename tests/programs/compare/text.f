// §9.8 == and != compare text by content
text a = 'abc'
text b = 'ab' + 'c'
log(a == b)
log(a != b)
log('a' != 'A')
log('' == '')
log('é' == 'é')
log(a == 'abd')
