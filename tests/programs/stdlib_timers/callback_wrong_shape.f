// The callback must take no parameters and return nothing (§12.4).
void func takes(a:int) { log(a) }
int func gives() { return 1 }
void func fine() { log('fine') }
setTimeout(takes, 10)
setInterval(gives, 10)
setTimeout(fine, 1.5)
clearTimeout('not an id')
setTimeout(fine, 1, 2)
