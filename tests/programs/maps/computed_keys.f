// §8.8 a key is any text expression; an unquoted identifier is a variable reference
text k = 'alpha'
map[int] m = { k: 1 }
log(m)
log(m['k'] == null)
text prefix = 'x'
map[int] n = { prefix + '1': 10 }
log(n['x1'])
