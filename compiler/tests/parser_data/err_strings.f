text a = 'unterminated
text b = 'nul \0 here'
text c = "fine"
