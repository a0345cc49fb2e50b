// An uncaught throw out of a comparator is a runtime failure (§14.2)
arr[int] xs = [2, 1]
log('sorting')
xs.sort(int (a:int, b:int) => Math.floorDiv(a, b - b))
log(xs)
int func boom(a:int, b:int) {
    throw 'comparator gave up'
}
xs.sort(boom)
log('not reached')
