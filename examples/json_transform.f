// json_transform.f: parse JSON into typed structs, reshape it, print JSON.
//
// An order export (as another service might send it; a template literal
// may span lines) is parsed with
// text.toStruct (§16.4): keys match fields case-insensitively, unknown
// keys are skipped and missing fields keep their zero values. The orders
// are then filtered, sorted and summarised per customer, and the report
// is rendered back to JSON with .toText() (§8.21).

struct Line {
    sku:text
    qty:int
    price:float
}

struct Order {
    id:int
    customer:text
    status:text
    lines:arr[Line]
}

struct Export {
    orders:arr[Order]
}

struct Summary {
    customer:text
    orders:int
    items:int
    total:float
}

struct Report {
    shipped:arr[int]
    customers:arr[Summary]
    skus:arr[text]
}

text input = `{
  "exportedBy": "shop-7",
  "Orders": [
    {"id": 3, "customer": "Grace", "status": "shipped",
     "lines": [{"sku": "tea", "qty": 2, "price": 3.5}, {"sku": "cup", "qty": 1, "price": 12.25}]},
    {"id": 1, "customer": "Ada", "status": "SHIPPED",
     "lines": [{"sku": "tea", "qty": 5, "price": 3.5}]},
    {"id": 2, "customer": "Grace", "status": "cancelled",
     "lines": [{"sku": "pot", "qty": 1, "price": 30}]},
    {"id": 4, "customer": "Ada", "status": "shipped", "lines": []}
  ]
}`

Export data = input.toStruct(Export)

// Keep shipped orders (status compared case-insensitively), oldest first.
arr[Order] shipped = []
for int i = 0, i < data.orders.length, i++ {
    Order o = data.orders[i]
    if /^shipped$/i.test(o.status) {
        shipped.push(o)
    }
}
shipped.sort(int (a:Order, b:Order) => a.id - b.id)

// One summary per customer, in order of first appearance.
map[Summary] byCustomer = {}
arr[text] customerOrder = []
map[bool] skuSeen = {}
Report report
for int i = 0, i < shipped.length, i++ {
    Order o = shipped[i]
    report.shipped.push(o.id)
    if byCustomer[o.customer] == null {
        Summary s = {'customer': o.customer}
        byCustomer[o.customer] = s
        customerOrder.push(o.customer)
    }
    Summary s = byCustomer[o.customer]
    s.orders = s.orders + 1
    for int j = 0, j < o.lines.length, j++ {
        Line l = o.lines[j]
        s.items = s.items + l.qty
        s.total = s.total + l.qty * l.price
        skuSeen[l.sku] = true
    }
}
for int i = 0, i < customerOrder.length, i++ {
    report.customers.push(byCustomer[customerOrder[i]])
}
report.skus = skuSeen.keys()
report.skus.sort(int (a:text, b:text) => a.charCodeAt(0) - b.charCodeAt(0))

log(report.toText())

// The report parses back into the same shape.
Report again = report.toText().toStruct(Report)
log(`${again.customers.length} customers, skus: ${again.skus.join(', ')}`)
