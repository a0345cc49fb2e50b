// A struct cannot be bound to a parameter (§15.3).
DatabaseURL = ':memory:'
struct P {
    x:int
}
P p = {'x': 1}
sqlite('SELECT ?', [p])
