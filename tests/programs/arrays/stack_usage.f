// §16.3 push and pop as a stack: matching brackets
bool func balanced(s:text) {
    arr[text] stack = []
    for int i = 0, i < s.length, i++ {
        text c = s[i]
        if c == '(' || c == '[' {
            stack.push(c)
        } else if c == ')' || c == ']' {
            text open = stack.pop()
            if open == null {
                return false
            }
            if (c == ')' && open != '(') || (c == ']' && open != '[') {
                return false
            }
        }
    }
    return stack.length == 0
}
log(balanced('([])()'))
log(balanced('(]'))
log(balanced('(()'))
log(balanced('())'))
