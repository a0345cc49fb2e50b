// §8.2 a map declared without an initializer is empty; {} is the empty literal
map[int] m
log(m)
m['x'] = 1
log(m)
map[text] e = {}
log(e)
