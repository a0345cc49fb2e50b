// Compound assignment is not Festina, for the bitwise operators too.
int x = 3
x &= 1
x <<= 2
