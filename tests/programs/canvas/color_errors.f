// color and font literals are resolved by the compiler (§8.14).
color a = 'nosuchcolour'
color b = '#12345'
text name = 'red'
color c = name
fillStyle('red')
font f = ''
font g = '12pt serif'
font h = name
changeFont('bold')
color ok = 'red'
log(ok)
int x = ok
drawRect(0, 0, 1, 1, 'blue')
