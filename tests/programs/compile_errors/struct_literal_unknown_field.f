// expect: 7:20 struct 'User' has no field 'email'
// §8.9.4 a struct literal naming an unknown field
struct User {
    id:int
    name:text
}
User u = {'id': 1, 'email': 'x'}
