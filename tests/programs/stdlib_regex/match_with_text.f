// expect: 2:17 argument 1 of 'match': cannot assign value of type text to regex
log('abc'.match('b'))
