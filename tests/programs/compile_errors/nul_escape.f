// expect: 3:12 the \0 escape is not allowed: text cannot hold a NUL
// §7.5.2 the \0 escape is an error: text cannot hold NUL
text t = 'a\0b'
