regex r = /abc
int ok = 1
