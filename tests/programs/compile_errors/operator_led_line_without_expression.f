// A line that begins with an operator continues the expression of the
// line before; with no expression before it, the error names that rule.
int x = 1
if x > 0 {
    || x > 2
}
int y = 2
    *
