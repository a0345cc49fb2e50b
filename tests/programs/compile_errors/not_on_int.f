// expect: 3:6 operand of ! must be bool, not int
// §9.6 ! requires a bool
log(!5)
