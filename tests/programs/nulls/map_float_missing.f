// §8.2/§8.8 a missing map[float] entry is the float null, a NaN: it renders null,
// yet == null and != null are both false
map[float] m = {'a': 1.5}
log(m['a'])
log(m['b'])
log(m['b'] == null)
log(m['b'] != null)
