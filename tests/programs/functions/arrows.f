// §9.1.5 arrow functions: (Type|void) (params) => expression
func[int, int]:int add = int (a:int, b:int) => a + b
func[int]:bool isPositive = bool (n:int) => n > 0
func[text]:void shout = void (s:text) => log(`${s}!`)
func[]:text hello = text () => 'hi'
log(add(2, 3))
log(isPositive(-4))
shout('hey')
log(hello())
