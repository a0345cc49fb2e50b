// §16.4 text.toStruct(T): keys match fields case-insensitively, unknown
// keys are skipped, missing fields keep zero values, JSON null is null
struct Address {
    city:text
    zip:int
}
struct User {
    id:int
    name:text
    score:float
    active:bool
    tags:arr[text]
    address:Address
    extra:map[int]
    nick:text
}
text src = '{"ID": 7, "Name": "Ada", "score": 9.5, "active": true, "tags": ["a", "b"], "address": {"City": "Paris", "ZIP": 75001}, "extra": {"x": 1, "y": 2}, "unknown": [1, {"deep": true}], "nick": null}'
User u = src.toStruct(User)
log(u)
log(u.address.city)
log(u.extra['y'])
log(u.nick == null)
User partial = '{"name": "Bo"}'.toStruct(User)
log(partial)
log(partial.address.zip)
partial.tags.push('new')
log(partial.tags)
User dup = '{"id": 1, "id": 2, "name": "a", "NAME": "b"}'.toStruct(User)
log(dup.id)
log(dup.name)
User none = 'null'.toStruct(User)
log(none == null)
User spaced = ' \t {"id" : 3 } \n'.toStruct(User)
log(spaced.id)
