// expect: 2:19 argument 1 of 'Math.floorDiv': cannot assign value of type float to int
log(Math.floorDiv(1.5, 2))
