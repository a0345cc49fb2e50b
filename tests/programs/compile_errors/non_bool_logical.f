// expect: 3:18 operand of && must be bool, not int
// §9.9 && and || need bool operands
bool b = true && 1
