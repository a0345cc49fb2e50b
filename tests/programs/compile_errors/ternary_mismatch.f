// expect: 4:16 ternary branches have different types: int and text
// §9.10 ternary branches must have the same type
bool flag = true
log(flag ? 1 : 'one')
