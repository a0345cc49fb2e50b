// Timeouts fire in deadline order, not creation order; equal delays fire
// in creation order (§12.4).
void func a() { log('a (10 ms)') }
void func b() { log('b (40 ms)') }
void func c() { log('c (80 ms)') }
void func d() { log('d (0 ms)') }
void func e() { log('e (0 ms, created after d)') }
setTimeout(c, 80)
setTimeout(b, 40)
setTimeout(a, 10)
setTimeout(d, 0)
setTimeout(e, 0)
log('armed')
