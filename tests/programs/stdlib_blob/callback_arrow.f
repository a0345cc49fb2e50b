// .callback accepts any function-typed expression (§11.1.4), including an
// arrow and a function value held in a variable.
func[blob]:void show = void (b:blob) => log(`loaded ${b.length} bytes`)
blob x = 'fixture.txt'.callback(show)
log(x.length)
