// `weak` struct fields (the reference's addition after edition 0.44): the
// field does not keep its target alive and reads null once the target
// is gone, never a freed value. `weak` is a contextual word.
struct Node {
    parent:weak Node
    kids:arr[Node]
    tag:int
}
Node n
if n.parent == null { log('unset: null') } else { log('unset: vivified') }
Node root
root.tag = 7
Node c
c.parent = root
root.kids.push(c)
Node p = c.parent
if p == null { log('lost') } else { log(`parent ${p.tag}`) }
log(c.parent.tag)
log(c.parent == root)

struct Thing { tag:int }
struct Holder { target:weak Thing }
struct StrongHolder { target:Thing }
Holder h
StrongHolder s
Holder h2
void func attach() {
    Thing t
    t.tag = 42
    h.target = t
}
attach()
if h.target == null { log('gone') } else { log('still here') }
void func attachBoth() {
    Thing t
    t.tag = 43
    h2.target = t
    s.target = t
}
attachBoth()
log(s.target.tag)
if h2.target == null { log('weak gone') } else { log('weak alive') }
// A non-null read is an ordinary counted reference.
Thing up = h2.target
s.target = null
log(up.tag)
free up
log(h2.target == null)
// Assigning null, and delete, clear the field.
Thing keep
keep.tag = 1
h.target = keep
log(h.target.tag)
h.target = null
log(h.target == null)
h.target = keep
delete h.target
log(h.target == null)
// A struct literal may set a weak field.
Holder lit = {'target': keep}
log(lit.target.tag)
// Rendering never follows a weak field.
log(c)
log(lit)
// `weak` is still an ordinary name elsewhere.
int weak = 3
log(`${weak}`)
struct W { weak:int }
W w
w.weak = 4
log(w.weak)
