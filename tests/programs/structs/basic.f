// §8.9.1 declaring an instance creates it; fields are populated by assignment
struct User {
    id:int
    name:text
    active:bool
    score:float
}
User u
u.id = 7
u.name = 'Bo'
log(u.id)
log(u.name)
log(u)
