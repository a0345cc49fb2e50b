// The callback must be the bare name of a declared function (§12.4).
int notAFunction = 5
setTimeout(notAFunction, 10)
setInterval(neverDeclared, 10)
void func cb() { log('x') }
func[]:void held = cb
setTimeout(held, 10)
setTimeout(void () => log('arrow'), 10)
