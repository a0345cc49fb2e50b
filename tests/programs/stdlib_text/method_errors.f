// expect: 3:14 unknown method 'reverse' on type text
text s = 'abc'
log(s.trim().reverse())
