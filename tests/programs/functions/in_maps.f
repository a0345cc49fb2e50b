// §8.12 function values stored as map values
map[func[int, int]:int] ops = {'add': int (a:int, b:int) => a + b, 'mul': int (a:int, b:int) => a * b}
func[int, int]:int op = ops['mul']
log(op(6, 7))
log(ops['add'](2, 2))
log(ops['pow'] == null)
