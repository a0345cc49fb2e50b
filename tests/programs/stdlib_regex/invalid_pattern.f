// §8.15 an invalid pattern is a runtime failure
log('before')
regex r = regex('a(b')
log('not reached')
