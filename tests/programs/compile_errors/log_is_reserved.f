// expect: 3:5 'log' is a reserved word
// §7.4 log is a reserved word and cannot name a variable
int log = 1
