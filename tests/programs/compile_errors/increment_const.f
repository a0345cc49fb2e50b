// expect: 4:1 cannot assign to constant 'k'
// §9.5 a constant is not a mutable variable
const int k = 1
k++
