// expect: 3:5 a value of type regex has no text form
regex r = /a/
log(r)
