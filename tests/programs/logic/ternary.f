// §9.10 the conditional operator; it is right-associative
int x = 7
log(x > 5 ? 'big' : 'small')
log(x > 10 ? 'huge' : x > 5 ? 'big' : 'small')
int y = x % 2 == 0 ? x / 2 == 0 ? 1 : 2 : 3
log(y)
text t = x > 100 ? null : 'fallback'
log(t)
text u = x > 1 ? null : 'unused'
log(u == null)
