// §8.8 a missing key reads null; log of a null text prints an empty line
map[text] m = {'a': 'x'}
log(m['b'] == null)
log(m['b'])
log(m['a'])
