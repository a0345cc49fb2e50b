// expect: 5:10 'a' is already declared in this scope
// §6.7 redeclaring in the same block scope is an error
if true {
    text a = 'one'
    text a = 'two'
    log(a)
}
