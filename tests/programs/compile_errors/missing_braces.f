// expect: 4:10 expected '{' after the if condition
// §10.1 compound statement bodies need braces
int x = 2
if x > 1 log(x)
