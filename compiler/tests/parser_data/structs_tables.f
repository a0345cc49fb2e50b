struct Point { x:int  y:int }
struct User {
    id:int
    name:text
    active:bool
    friends:arr[User]
}
table Account {
    owner:text; balance:float, tags:map[text]
}
User a = {'id': 1, 'name': 'Patrick', 'active': true}
User c = {}
