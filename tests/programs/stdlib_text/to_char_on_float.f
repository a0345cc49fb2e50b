// expect: 3:7 unknown method 'toChar' on type float
float f = 65.0
log(f.toChar())
