// §8.8 when a computed key repeats a key, the last value wins
text k = 'a'
map[int] m = {k: 1, 'a': 2}
log(m)
log(m['a'])
