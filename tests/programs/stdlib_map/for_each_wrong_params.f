// expect: 6:11 argument 1 of 'forEach': cannot assign value of type func[text, int]:void to func[int, text]:void
void func show(k:text, v:int) {
    log(k)
}
map[int] m = {'a': 1}
m.forEach(show)
