// expect: 4:12 '${' outside a template literal (use a `template`)
// §7.5.3 ${ in a quoted string is outside a template literal (use backquotes)
text name = 'Ann'
log('Hello ${name}')
