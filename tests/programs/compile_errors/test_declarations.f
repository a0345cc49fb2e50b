// A test group is an ordinary value name: declared before use, unique,
// never a built-in's name; its description is text.
basicMath(1, 1)
test basicMath = 'x'
int other = 1
test other = 'y'
test Math = 'z'
test numbered = 42
log(basicMath)
