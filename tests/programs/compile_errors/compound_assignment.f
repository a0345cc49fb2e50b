// expect: 4:3 unexpected '+=' (write x = x + 2)
// §7.6 there is no += operator
int x = 1
x += 2
