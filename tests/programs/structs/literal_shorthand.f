// §8.9.4 { name } is shorthand for {'name': name}
struct User {
    id:int
    name:text
}
text name = 'Brad'
int id = 3
User d = { name }
log(d)
User e = { id, name }
log(e)
