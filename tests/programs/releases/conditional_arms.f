// Temporaries holding managed values inside the arms of `?:`, `&&` and
// `||`, followed by more work in the same statement: each arm pays its
// own releases, and a register reused on one path never cancels a
// release owed on the other.
struct P {
    name:text
    n:int
}
P a = {'name': 'ann', 'n': 1}
P b = {'name': 'bob', 'n': 2}
int two = 2
text func pick(x:bool, y:text, z:int) {
    return `${x} ${y} ${z}`
}
void func probe() {
    for int i = 0, i < 3, i++ {
        log(pick(i == 1, i < 2 ? a.name : b.name, i < 1 ? a.n : b.n + two))
        log(i == two ? a.name.length == 3 : b.name.length < two)
        text t = (i > 0 && a.name.length == 3) ? `${a.name}${i}` : b.name
        log(t)
    }
}
probe()
