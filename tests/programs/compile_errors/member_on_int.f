// expect: 4:7 int has no member 'length'
// §9.2 int has no properties
int n = 5
log(n.length)
