// §16.3 sort(cmp): in place, stable, with a declared function, an arrow
// or any func[T,T]:int value
struct Item {
    key:int
    name:text
}
int func asc(a:int, b:int) {
    return a - b
}
Item func item(k:int, n:text) {
    Item x = {'key': k, 'name': n}
    return x
}
arr[int] xs = [5, 2, 9, 1, 5, 6]
xs.sort(asc)
log(xs)
xs.sort(int (a:int, b:int) => b - a)
log(xs)
func[int, int]:int f = asc
xs.sort(f)
log(xs)
arr[Item] items = [item(2, 'a'), item(1, 'b'), item(2, 'c'), item(1, 'd'), item(0, 'e')]
items.sort(int (x:Item, y:Item) => x.key - y.key)
text order = ''
for int i = 0, i < items.length, i++ {
    order = order + items[i].name
}
log(order)
arr[text] ws = ['ccc', 'a', 'bb', 'dd']
ws.sort(int (a:text, b:text) => a.length - b.length)
log(ws)
arr[int] one = [1]
one.sort(asc)
log(one)
arr[int] none = []
none.sort(asc)
log(none)
amor arr[int] am = [3, 1, 2]
am.sort(asc)
log(am)
arr[int] big = []
for int i = 0, i < 1000, i++ {
    big.push((i * 7919) % 1000)
}
big.sort(asc)
bool sorted = true
for int i = 1, i < big.length, i++ {
    if big[i - 1] > big[i] {
        sorted = false
    }
}
log(sorted)
log(big[0])
log(big[999])
