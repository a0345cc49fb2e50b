// expect: 4:17 operator + cannot be applied to text and int
// §9.7 + on text and int is not allowed (use a template)
int n = 3
text t = 'n = ' + n
