// expect: 7:11 struct literal keys must be string literals
// §8.9.4 struct literal keys must be string literals
struct User {
    id:int
}
text key = 'id'
User u = {key: 1}
