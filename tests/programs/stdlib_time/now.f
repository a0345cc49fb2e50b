// now() is milliseconds since the Unix epoch (§16.5).
int t = now()
log(t > 1600000000000)
log(t < 10000000000000)
int u = now()
log(u >= t)
log(typeof now())
