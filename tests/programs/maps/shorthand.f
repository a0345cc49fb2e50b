// §8.8 { name } is shorthand for {'name': name}
text name = 'Ann'
map[text] m = { name }
log(m)
log(m['name'])
