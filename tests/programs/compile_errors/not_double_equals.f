// expect: 4:12 '!==' is not a Festina operator; use '!='
// §7.6 !== is recognized only to be rejected
int a = 1
bool b = a !== 2
