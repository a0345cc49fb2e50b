// our decision: comparing a field with null does not auto-vivify it
struct Node {
    val:int
    next:Node
}
Node n
n.val = 1
log(n.next == null)
log(n.next != null)
log(n)
