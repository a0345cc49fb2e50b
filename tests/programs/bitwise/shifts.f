// << and >> on int: >> is arithmetic (keeps the sign); a count outside
// 0..63 gives null, like division by zero.
int one = 1
int big = 256
log(one << 8)
log(big >> 4)
log(big >> 0)
int neg = 0 - 16
log(neg >> 2)
log((0 - 1) >> 40)
int sixtyFour = 64
int minusOne = 0 - 1
log((one << sixtyFour) == null)
log((one >> sixtyFour) == null)
log((one << minusOne) == null)
log((one << 62) == null)
log(one << 62)
// Setting the top bit is an ordinary value here: int's null is its own
// value, not the smallest int.
log(one << 63)
log((one << 63) == null)
// Bits shifted out on the left are lost.
log(0x7FFFFFFFFFFFFFFF << 1)
// In a loop the shifts run in the interpreter's fast tier.
int acc = 0
for int i = 0, i < 70, i++ {
    int bit = one << i
    if bit != null {
        acc = acc ^ bit
    }
}
log(acc)
