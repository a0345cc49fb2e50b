// §8.15 regex literals with .test, and text.match/.replace/.split
regex digits = /[0-9]+/
log(digits.test('room 42'))
log(digits.test('no digits'))
log('room 42'.match(digits))
log('none'.match(digits) == null)
log('a1b22c333'.replace(digits, '#'))
log('a1b22c333'.replace(/[0-9]+/g, '#'))
log('a1b2c3'.split(/[0-9]/))
log('one, two,three'.split(/, */))
regex ci = /^hello$/i
log(ci.test('HeLLo'))
log(ci.test('hello!'))
regex g = /o/g
log(g.test('foo'))
log(g.test('foo'))
log('foo'.match(g))
log('foo boo'.replace(g, '0'))
log('a-b-c'.replace(/-/, '_'))
log('a-b-c'.replace(/-/g, '_'))
log('price: $5'.replace(/[$]/, 'USD '))
log('x'.replace(/x/, '$1'))
log(typeof digits)
