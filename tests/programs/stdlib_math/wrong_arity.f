// expect: 2:5 wrong number of arguments to 'Math.pow': expected 2, found 1
log(Math.pow(2.0))
