// expect: 4:22 ternary branches have different types: int and float
// §9.10 an int/float mix in ternary branches is an error
bool flag = true
float f = flag ? 1 : 2.5
