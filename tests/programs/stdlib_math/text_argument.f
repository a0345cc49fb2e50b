// expect: 2:15 argument 1 of 'Math.sqrt': cannot assign value of type text to float
log(Math.sqrt('4'))
