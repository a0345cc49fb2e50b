// expect: 2:1 cannot assign to read-only 'Math'
Math.PI = 3.0
