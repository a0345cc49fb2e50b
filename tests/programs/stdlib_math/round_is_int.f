// expect: 2:11 cannot assign value of type int to float
float f = Math.round(2.5)
