// expect: 6:17 cannot assign value of type text to int (field 'id')
// §8.9.4 each value must be assignable to its field
struct User {
    id:int
}
User u = {'id': 'seven'}
