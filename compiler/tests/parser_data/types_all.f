int i
float f
bool b
text t
ascii a
blob bl
img im
aud au
regex r
color c
font fo
http h
socket s
url u
thread th
arr[map[int]] am
func[func[int]:void, text]:bool? hof
User?? twice
