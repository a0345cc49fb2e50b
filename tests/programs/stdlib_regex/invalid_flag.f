// regex() flags are checked at run time
regex r = regex('a', 'x')
