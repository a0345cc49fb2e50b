// §8.9.1 a recursive tree walked with null checks (which do not vivify)
struct Tree {
    val:int
    left:Tree
    right:Tree
}
Tree func leaf(v:int) {
    Tree t
    t.val = v
    return t
}
int func total(t:Tree) {
    int s = t.val
    if t.left != null {
        s = s + total(t.left)
    }
    if t.right != null {
        s = s + total(t.right)
    }
    return s
}
Tree root = leaf(1)
root.left = leaf(2)
root.right = leaf(3)
root.left.left = leaf(4)
log(total(root))
log(root)
