// §8.3 division by a literal zero also yields null, not a compile-time crash
log(1 / 0)
log(1 % 0)
log(1.5 / 0.0)
log('ok')
