// expect: 3:11 ascii literal contains a non-ASCII character
// §8.5 an ascii literal must be ASCII
ascii a = 'héllo'
