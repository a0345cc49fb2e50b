// expect: 6:11 argument 1 of 'forEach': cannot assign value of type func[int, text]:int to func[int, text]:void
int func show(v:int, k:text) {
    return v
}
map[int] m = {'a': 1}
m.forEach(show)
