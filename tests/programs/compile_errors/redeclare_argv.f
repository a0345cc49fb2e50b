// expect: 3:11 'argv' is a built-in name and cannot be redeclared
// §6.7 a variable may not take the name of a built-in global
arr[text] argv = []
