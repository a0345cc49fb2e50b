// §7.5.4 null is a value of every type; its type comes from context
int n = null
bool b = null
text t = null
log(n)
log(b)
log(t)
log(n == null)
log(b == null)
log(t == null)
