// §13.1 releasing a 200000-node linked list must not exhaust any stack
struct Node {
    val:int
    next:Node
}
Node head = null
for int i = 0, i < 200000, i++ {
    Node n
    n.val = i
    n.next = head
    head = n
}
log(head.val)
head = null
log('released')
