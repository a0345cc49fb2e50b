// expect: 3:11 argument 1 of 'forEach': cannot assign value of type int to func[int, text]:void
map[int] m = {'a': 1}
m.forEach(5)
