// Array elements, map entries and fields as the left operand of a
// comparison with a global (each read needs a temporary holding the
// container).
int g = 3
float h = 2.5
arr[int] xs = [1, 3, 5]
arr[text] names = ['ann', 'bob']
map[int] ages = {'ann': 3}
arr[float] fs = [2.5]
void func probe() {
    if xs[1] == g { log('element equal') } else { log('WRONG') }
    if xs[2] != g { log('element differs') } else { log('WRONG') }
    if xs[0] < g { log('element less') } else { log('WRONG') }
    if names[1].length == g { log('name length') } else { log('WRONG') }
    if ages['ann'] == g { log('map entry') } else { log('WRONG') }
    if fs[0] == h { log('float element') } else { log('WRONG') }
    if fs[0] < h { log('WRONG') } else { log('float not less') }
    if fs[0] <= h { log('float at most') } else { log('WRONG') }
}
probe()
