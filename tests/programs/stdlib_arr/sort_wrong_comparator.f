// expect: 6:9 argument 1 of 'sort': cannot assign value of type func[text, text]:int to func[int, int]:int
int func byLength(a:text, b:text) {
    return a.length - b.length
}
arr[int] xs = [1]
xs.sort(byLength)
