func[int]:int double = int (x:int) => x * 2
func[]:void hello = void () => log('hi')
arr[int] xs = [3, 1, 2]
xs.sort(int (a:int, b:int) => a - b)
func[text]:User mk = User (n:text) => {'name': n}
void () => log(1)
