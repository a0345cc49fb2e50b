// §10.9 for a non-enum subject the one valid tag is its static type name
struct User {
    id:int
}
int n = 5
match n {
    'int' { log('an int') }
}
User u
match u {
    'User' { log('a User') }
    default { log('never') }
}
text t = 'x'
match t {
    default { log('only default') }
}
