// §7.3 identifiers: letters, digits and underscores; case-sensitive
int value = 1
int Value = 2
int VALUE = 3
int _private = 4
int snake_case_2 = 5
int x1y2z3 = 6
log(value + Value + VALUE)
log(_private)
log(snake_case_2 * x1y2z3)
