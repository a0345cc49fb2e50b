bool a = true
bool b = false
bool c = a
    || b
    && !a
int total = 1
    + 2
    * 3
text word = a
    ? 'yes'
    : 'no'
text s = 'a-b-c'
    .replace('-', '+')
int x
x
    = 12
if a
    && total > 0 {
    log('condition continued')
}
int spread = 1

    // the rest
    + 1
int n = add(1,
    2) + 3
    + 4
int func add(p:int, q:int) { return p + q }
