// §16.4 toText renders JSON that toStruct reads back
struct Item {
    name:text
    qty:int
    price:float
}
struct Order {
    id:int
    items:arr[Item]
    notes:map[text]
    rush:bool
}
Order o
o.id = 42
Item a = {'name': 'tea "green"', 'qty': 2, 'price': 3.5}
Item b = {'name': 'cups\nx6', 'qty': 1, 'price': 12.25}
o.items.push(a)
o.items.push(b)
o.notes['gift'] = 'yes'
o.rush = true
text json = o.toText()
log(json)
Order back = json.toStruct(Order)
log(back.toText() == json)
log(back.items[1].name)
