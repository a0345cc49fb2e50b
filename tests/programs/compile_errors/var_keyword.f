// expect: 3:1 'var' is not Festina: declare with a type, e.g. 'int x = ...'
// §7.4 var is reserved only to be rejected
var x = 1
