// §9.1.5 an arrow body may read globals (no closures: it reads the current value)
int base = 100
func[int]:int addBase = int (n:int) => n + base
log(addBase(1))
base = 200
log(addBase(1))
