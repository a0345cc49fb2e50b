// expect: 2:5 wrong number of arguments to 'charCodeAt': expected 1, found 0
log('abc'.charCodeAt())
