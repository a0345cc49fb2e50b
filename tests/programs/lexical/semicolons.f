// §7.1 a semicolon may end a statement; several statements may share a line
int a = 1; int b = 2; log(a + b);
log('without')
text t = 'with';
log(t);
