// A line that begins with a binary operator, or with the ternary's `?`
// or `:`, continues the expression of the line before: the reference
// compiler reads line breaks as blanks, and JavaScript programmers break
// long expressions before the operator. (Beyond §7.1's wording; see the
// README's differences.)
bool a = true
bool b = false
bool c = a
    || b
    && !a
log(c)
int total = 1
    + 2
    * 3
    - 4
log(total)
float ratio = 10
    / 4
log(ratio)
bool same = total
    == 3
log(same)
bool less = total
    < 4
log(less)
int bits = 0xF0
    & 0x3C
    | 0x01
    ^ 0x02
    << 1
log(bits)
text word = a
    ? 'yes'
    : 'no'
log(word)
text nested = b ? 'first'
    : a ? 'second'
    : 'third'
log(nested)
int x
x
    = 12
log(x)
text s = 'a-b-c'
    .replace('-', '+')
log(s)
if a
    && total > 0 {
    log('condition continued')
}
// Blank lines and comments between do not matter.
int spread = 1

    // the rest
    + 1
log(spread)
