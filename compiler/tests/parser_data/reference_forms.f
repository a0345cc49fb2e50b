// Forms the reference compiler accepts beyond the letter of edition 0.44.
bool ok = a
  || b && c
text s = ok
  ? 'y'
  : 'n'
{ end = i break }
P p  p.x = v  return p
log([1 2 3,])
struct Node {
  parent:weak Node
  weak:int
}
test basicMath = 'basic math test'
basicMath(2 + 2, 4)
int m = (0xFF & flags) | ~0 ^ 1 << 4 >> 2
log(i++)
