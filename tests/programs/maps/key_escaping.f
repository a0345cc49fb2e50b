// §8.21 map keys render as JSON strings, escaped like any text
map[int] m = {'say "hi"': 1}
log(m)
map[text] u = {'é': 'ü'}
log(u)
