// A tree whose parent pointers are weak: releases never buffer possible
// cycle roots for it (the only way back up is weak), children reach their
// parent while it lives, and a subtree kept after its tree is dropped
// sees its parent gone.
struct Node {
    parent:weak Node
    kids:arr[Node]
    tag:int
}
Node func build(n:int) {
    Node root
    root.tag = 0
    for int i = 1, i <= n, i++ {
        Node c
        c.tag = i
        c.parent = root
        root.kids.push(c)
        Node g
        g.tag = i * 100
        g.parent = c
        c.kids.push(g)
    }
    return root
}
int func sumUp(x:Node) {
    int s = 0
    Node cur = x
    while cur != null {
        s = s + cur.tag
        cur = cur.parent
    }
    return s
}
Node t = build(2000)
log(t.kids.length)
log(sumUp(t.kids[1999].kids[0]))
Node kept = t.kids[5]
t = build(1)
log(kept.tag)
log(kept.parent == null)
log(kept.kids[0].parent == kept)
log(sumUp(kept.kids[0]))
