// §7.5.3 template literals substitute ${...} left to right
int a = 2
int b = 3
text name = 'Festina'
log(`Hello, ${name}!`)
log(`${a} + ${b} = ${a + b}`)
log(`no substitutions`)
log(`${a}${b}`)
