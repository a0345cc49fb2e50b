// §8.3 float equality is exact IEEE comparison
log(0.1 + 0.2 == 0.3)
log(0.5 + 0.25 == 0.75)
log(1.0 == 1)
log(2.5 != 2.5)
