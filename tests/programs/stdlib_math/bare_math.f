// expect: 2:5 'Math' is a namespace, not a value; use one of its members, such as Math.floor(x) or Math.PI (§16.2)
log(Math)
