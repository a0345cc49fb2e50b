// expect: 2:10 'Math.floor' is a function and must be called
log(Math.floor)
