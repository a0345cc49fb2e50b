// `weak` applies only to a struct's field of struct type.
struct Node {
    next:Node
}
table Row {
    owner:weak Row
}
struct S {
    xs:weak arr[int]
    n:weak int
    s:weak text
    m:weak map[Node]
}
