// expect: 4:1 '++' requires an int variable, not float
// §9.5 ++ requires an int variable
float f = 1.5
f++
