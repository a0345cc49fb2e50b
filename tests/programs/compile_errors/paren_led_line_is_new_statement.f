// A line that begins with '(' or '[' starts a new statement: it does not
// continue the line before (the JavaScript hazard), and the error says so.
int a = 1
int b = a
(a + 1)
arr[int] xs = [1]
[2, 3]
