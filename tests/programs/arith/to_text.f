// §16.3 int, float and bool have .toText()
int n = 42
int neg = -7
float f = 2.25
bool b = true
text t = n.toText()
log(t + '!')
log(neg.toText())
log(f.toText())
log(b.toText())
log(typeof t)
log(n.toText().length)
