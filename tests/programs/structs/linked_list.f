// §8.9.1 a struct may have a field of its own type
struct Node {
    val:int
    next:Node
}
Node head = null
for int i = 1, i <= 4, i++ {
    Node n
    n.val = i
    n.next = head
    head = n
}
log(head)
int sum = 0
Node cur = head
while cur != null {
    sum = sum + cur.val
    if cur.next == null {
        cur = null
    } else {
        cur = cur.next
    }
}
log(sum)
