// The bitwise operators bind tighter than the comparisons (so
// `flags & MASK == 0` is `(flags & MASK) == 0`), the shifts looser than
// + and -, and & tighter than ^ tighter than |. && and || are still one
// token each and bind loosest.
int flags = 6
int mask = 4
log(flags & mask == 4)
log(flags | 1 == 7)
log(flags ^ 2 == 4)
log(1 << 4 + 1)
log(8 >> 2 + 1)
log(1 | 6 ^ 3 & 1)
bool t = true
bool f = false
log(t && f)
log(t || f)
log(1 & 1 == 1 && 2 | 0 == 2)
log(flags & mask != 0 || false)
