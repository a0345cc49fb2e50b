// expect: 6:19 cannot assign value of type func[text]:int to func[int]:int
// §8.12 function types are compared structurally
int func len(t:text) {
    return t.length
}
func[int]:int f = len
