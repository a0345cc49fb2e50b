// expect: 3:1 'let' is not Festina: declare with a type, e.g. 'int y = ...'
// §7.4 let is reserved only to be rejected
let y = 2
