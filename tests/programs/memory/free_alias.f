// §10.11 free of a reference-counted value is a decrement: an alias stays usable
struct User {
    id:int
}
User a
a.id = 3
User b = a
free a
log(a == null)
log(b.id)
free a
log(a == null)
