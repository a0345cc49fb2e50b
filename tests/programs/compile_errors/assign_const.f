// expect: 4:1 cannot assign to constant 'limit'
// §10.2 a constant may not be reassigned
const int limit = 10
limit = 11
