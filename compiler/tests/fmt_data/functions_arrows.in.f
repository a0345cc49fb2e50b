int func square(n:int){return n*n}
func[int]:int f=square
func[int,int]:int add=int(a:int,b:int)=>a+b
void(x:int)=>log(x)
arr[int] xs = [3, 1, 2]
xs.sort(int (a:int, b:int) => a - b)
log(add(f(3),1))
text? maybe = null
amor arr[int] big = [1]
arr[Point?] pts = []
struct Point { x:int }
log(typeof maybe)
text s = '[1,2]'
arr[int] parsed = s.toArr( arr[int] )
