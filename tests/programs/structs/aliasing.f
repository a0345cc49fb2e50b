// §8.9.1 a struct value is a reference: assignment and argument passing share the instance
struct User {
    id:int
}
void func setId(u:User, v:int) {
    u.id = v
}
User a
a.id = 1
User b = a
b.id = 5
log(a.id)
setId(a, 9)
log(b.id)
