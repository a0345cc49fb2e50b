text name = 'Festina'
const int limit = 10
float ratio = 1.5
bool ok
User u
User? manual = {'id': 1}
amor arr[int] xs = []
const amor arr[text] names = ['a', "b"]
map[arr[int]] nested
func[int, text]:void cb = void (n:int, s:text) => log(s)
arr[User?] maybe = [null, null]; int a = 1; int b = 2
