// helper: contains a type error on line 3
int ok = 1
int broken = 'text'
