test add = 'addition'
add(1 + 1, 2)
add(2 + 2, 5)
test mul = 'multiplication'
mul(2 * 3, 6)
