// expect: 4:5 'break' outside a loop
// §10.7 break outside a loop
if true {
    break
}
