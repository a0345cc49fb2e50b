// expect: 4:5 '${' outside a template literal
// §7.5.3 ${ outside a template literal is a lexical error
int x = 1
log(${x})
