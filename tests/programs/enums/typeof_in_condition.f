// §9.6 typeof of an enum compared with a member name
struct Ok {
    value:int
}
struct Err {
    message:text
}
enum Result = Ok, Err
Result func divide(a:int, b:int) {
    if b == 0 {
        Err e = {'message': 'division by zero'}
        return e
    }
    Ok o = {'value': a * 10 + b}
    return o
}
Result r = divide(1, 0)
if typeof r == 'Err' {
    log(r.message)
}
r = divide(4, 2)
if typeof r == 'Ok' {
    log(r.value)
}
