// expect: 3:10 unterminated string literal
// §7.5.2 a string may not contain an unescaped line terminator
text s = 'never closed
log(s)
