// expect: 2:10 unknown member 'cbrt' of Math (§16.2)
log(Math.cbrt(8.0))
