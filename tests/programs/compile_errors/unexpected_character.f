// expect: 4:11 unexpected character '#'
// §14.1 an unexpected character is a lexical error
int x = 1
int y = x # 2
