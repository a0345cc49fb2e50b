// expect: 9:6 enum 'Pet': members Cat and Dog both declare field 'name'
// §8.11 enum members that share a field name are an error at the declaration
struct Cat {
    name:text
}
struct Dog {
    name:text
}
enum Pet = Cat, Dog
