// expect: 2:17 argument 1 of 'split': expected text or regex, found int
log('a,b'.split(12))
