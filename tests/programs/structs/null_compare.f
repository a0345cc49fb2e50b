// §8.9.1 x == null is defined for structs
struct User {
    id:int
}
User a
User b = null
log(a == null)
log(b == null)
log(b != null)
b = a
log(b == null)
a = null
log(a == null)
log(b.id)
