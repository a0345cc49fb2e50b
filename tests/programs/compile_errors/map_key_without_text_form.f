// A map key must be text or have a text form.
map[int] m = {}
func[int]:int f = int (x:int) => x
log(m[f])
map[int] lit = {f: 1}
