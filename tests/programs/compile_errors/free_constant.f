// expect: 4:6 cannot free constant 'k'
// §10.11 constants may not be freed
const int k = 1
free k
