// expect: 2:5 environment.HOME is a text value, not a function
log(environment.HOME())
