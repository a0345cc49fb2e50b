// text.toFloat(): blanks, a sign, digits with an optional fraction and
// exponent; the rest is ignored. No number at the start gives null (the
// float null, NaN), and so do `inf` and `nan`; hexadecimal is not a form
// (`0x10` reads the `0` before the `x`).
log('12'.toFloat())
log('  -2.5xyz'.toFloat())
log('.5'.toFloat())
log('1e3'.toFloat())
log('1e'.toFloat())
log('inf'.toFloat())
log('nan'.toFloat())
log('0x10'.toFloat())
log('abc'.toFloat())
float x = 'abc'.toFloat()
log(x == x)
log('6.02e23'.toFloat() > 6.0)
