// our runtime: reading a field through a null struct is a runtime failure
struct User {
    id:int
    name:text
}
text func nameOf(u:User) {
    return u.name
}
log('before')
log(nameOf(null))
log('never')
