int a = 1 + 2 * 3 - 4 / 5 % 6
bool b = a < 1 || a >= 2 && !(a == 3) && a != 4
int c = -a + +a
text t = typeof a
int d = a > 0 ? 1 : a < 0 ? -1 : 0
x = y = 3
bool e = a === 1 || a !== 2
f(1)(2)[3].g++
int g = a <= 2 ? a : -(-a)
