// expect: 3:5 wrong number of arguments to 'test': expected 1, found 2
regex r = /a/
log(r.test('a', 'b'))
