amor map[int] m = {}
int t = int
arr[] bad
func[int] f
void v = 1
