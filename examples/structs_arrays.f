// structs_arrays.f: structs, arrays of structs, aliasing and JSON output.

// A struct is a record type with statically typed fields.
struct Item {
    name:text
    price:float
    qty:int
    tags:arr[text]
}

// A struct literal names fields with string-literal keys; omitted fields keep
// their zero values (0, false, null, or an empty array or map).
Item apple = {'name': 'apple', 'price': 0.5, 'qty': 12}
Item pear = {'name': 'pear', 'price': 0.75, 'qty': 4, 'tags': ['ripe']}

arr[Item] basket = [apple, pear]

// Fields of struct, array and map type come to life on first use, so this
// push works although `tags` was never assigned.
apple.tags.push('fresh')

// Structs and arrays are references: `apple` and `basket[0]` are one item.
basket[0].qty = 10
log(apple.qty)

// Functions may be declared anywhere; they are visible everywhere.
float func total(items:arr[Item]) {
    float sum = 0.0
    for int i = 0, i < items.length, i++ {
        // int and float mix freely in arithmetic; the result is float
        sum = sum + items[i].price * items[i].qty
    }
    return sum
}

log(`items: ${basket.length}, total: ${total(basket)}`)

// log() renders structs and arrays as compact JSON.
log(basket)
