// forEach also takes an arrow or any func[T, text]:void value
map[text] colors = {'sky': 'blue', 'grass': 'green'}
colors.forEach(void (v:text, k:text) => log(`${k}: ${v}`))
func[text, text]:void f = void (v:text, k:text) => log(v.length)
colors.forEach(f)
