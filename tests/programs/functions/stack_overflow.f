// our runtime: runaway recursion is a runtime failure naming the function and line
int func down(n:int) { return down(n + 1) + 1 }
log('before')
log(down(0))
log('never')
