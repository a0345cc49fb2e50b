// expect: 5:14 unknown type 'Customer'
// §8.19 an unknown type in a struct field
struct Order {
    id:int
    customer:Customer
}
Order o
log(o.id)
