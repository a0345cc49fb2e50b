// expect: 3:1 unknown function 'frobnicate'
// §9.4 calling an unknown function
frobnicate(1)
