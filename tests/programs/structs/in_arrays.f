// §8.7 arrays of structs; writing a field through an element
struct User {
    id:int
    name:text
}
arr[User] users = []
for int i = 0, i < 3, i++ {
    User u
    u.id = i
    u.name = `user${i}`
    users.push(u)
}
users[1].name = 'renamed'
log(users)
log(users[2].name)
