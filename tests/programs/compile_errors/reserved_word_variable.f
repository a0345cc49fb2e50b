// expect: 3:5 'match' is a reserved word
// §7.4 reserved words cannot name variables
int match = 3
