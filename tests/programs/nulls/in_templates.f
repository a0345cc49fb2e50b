// §8.21 null numbers and bools render as null inside templates and JSON
int zero = 0
int n = null
bool b = null
float f = 1 / zero
log(`n=${n} b=${b} f=${f}`)
struct S {
    x:int
    ok:bool
}
S s = {'x': null, 'ok': null}
log(s)
