// §9.6 typeof yields the static type name
int i = 1
float f = 1.5
bool b = true
text t = 'x'
ascii a = 'y'
log(typeof i)
log(typeof f)
log(typeof b)
log(typeof t)
log(typeof a)
