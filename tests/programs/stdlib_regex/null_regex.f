// A regex declared without a value is null; using it is a failure
regex r
log(r == null)
log(r.test('a'))
