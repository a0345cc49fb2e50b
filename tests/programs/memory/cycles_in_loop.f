// §13.3 reference cycles are collected once nothing outside reaches them
struct Node {
    val:int
    next:Node
}
int made = 0
for int i = 0, i < 100000, i++ {
    Node a
    Node b
    a.next = b
    b.next = a
    a.val = i
    made++
}
log(made)
