// expect: 3:11 constant 'limit' must be initialized
// §10.2 a constant must be initialized
const int limit
log(limit)
