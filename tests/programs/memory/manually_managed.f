// §8.18 a T? binding may be initialized from a fresh construction; free/clear release it
struct Buf {
    data:text
}
Buf? b = {'data': 'temp'}
log(b.data)
free b
log(b == null)
arr[int]? xs = [1, 2, 3]
log(xs.length)
clear xs
log(xs == null)
