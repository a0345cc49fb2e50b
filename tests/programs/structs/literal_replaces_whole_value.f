// §8.9.4 assigning a literal builds a fresh instance; it does not update the old one
struct User {
    id:int
    name:text
}
User u = {'id': 1, 'name': 'Ana'}
User alias = u
u = {'id': 2}
log(u)
log(alias)
