// expect: 4:1 cannot assign to a character of text (text is immutable)
// §9.11 s[i] on text is read-only
text s = 'abc'
s[0] = 'x'
