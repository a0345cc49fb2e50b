// expect: 6:20 field 'id' is given twice
// §8.9.4 naming the same field twice
struct User {
    id:int
}
User u = {'id': 1, 'id': 2}
