// expect: 4:1 top-level code cannot return a value
// §10.8 top-level code may not return a value
log('x')
return 5
