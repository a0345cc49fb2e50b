// §10.11 free on a scalar sets it to null; on text it frees the buffer
int n = 5
free n
log(n == null)
log(n)
text t = 'secret'
free t
log(t == null)
t = 'again'
log(t)
