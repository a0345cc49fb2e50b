// §13.1 a local that escapes into a longer-lived value survives its block
struct Item {
    id:int
}
arr[Item] keep = []
void func make(n:int) {
    Item it
    it.id = n
    keep.push(it)
}
for int i = 0, i < 3, i++ {
    make(i)
}
log(keep)
