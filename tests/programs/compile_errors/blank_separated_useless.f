// Two statements on one line: the second must do something.
int y = 6 7
log(y) y
