// §8.9.4 struct literals: string-literal keys; omitted fields keep zero values
struct User {
    id:int
    name:text
    active:bool
}
User a = {'id': 1, 'name': 'Ada', 'active': true}
User b = {'name': 'Bo'}
User c = {}
log(a)
log(b)
log(c)
