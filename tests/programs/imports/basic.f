// §6.2 an imported file's declarations join the global scope; its top-level code runs first
import lib/util.f
log('main starts')
log(add(2, 3))
Pair p = {'a': 1, 'b': 2}
log(add(p.a, p.b))
log(utilCounter)
