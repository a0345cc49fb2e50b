// expect: 3:9 cannot assign value of type text to int; 5:10 cannot assign value of type text to bool; 7:11 cannot assign value of type int to float
// §14.1 independent errors are all reported in one run
int a = 'one'
text b = 'two'
bool c = b
log(a)
float d = 4
