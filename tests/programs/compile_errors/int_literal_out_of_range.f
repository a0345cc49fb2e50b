// expect: 3:11 integer literal 9223372036854775808 is out of range for int
// §7.5.1 an integer literal must fit in an int
int big = 9223372036854775808
