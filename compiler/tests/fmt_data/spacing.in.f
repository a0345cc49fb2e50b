int   x=1+2*3
float  ratio=x/2
bool ready=x>2&&ratio<=1.5||!false
int bits=0xF0&0x3C|1^2<<1>>1
int neg=- -x
int flip=~x
text t=typeof x
arr[int]xs=[1,2,3]
map[int]m={'a':1,'b':2}
log( xs[ 0 ] , m[ 'a' ] )
x ++
x--
int y = x ++ + 1
text word=ready?'yes':'no'
