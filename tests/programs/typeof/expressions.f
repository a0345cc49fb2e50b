// §9.6 typeof of expressions follows the operator typing rules of §8.3 and §9
log(typeof (1 + 2))
log(typeof (1 + 2.0))
log(typeof (4 / 2))
log(typeof (5 % 2))
log(typeof ('a' + 'b'))
log(typeof (1 < 2))
log(typeof `t${1}`)
log(typeof 'abc'[0])
