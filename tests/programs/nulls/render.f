// §8.21 null renders as null, except a null text, which log prints as an empty line
struct User {
    id:int
}
int zero = 0
int n = null
bool b = null
text t = null
float f = 1 / zero
User u = null
log(n)
log(b)
log(t)
log(f)
log(u)
log('end')
