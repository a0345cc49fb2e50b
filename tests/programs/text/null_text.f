// §8.2 a text declared without initializer is null; .length of null reads 0
text t
log(t == null)
log(t.length)
log(t)
t = 'set'
log(t)
log(t.length)
