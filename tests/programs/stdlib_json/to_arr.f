// §16.4 text.toArr(T) with scalar, array, map and struct elements
struct Pt {
    x:int
    y:int
}
arr[int] xs = '[1, 2, 3]'.toArr(int)
log(xs)
arr[text] ts = '["a", "b", null]'.toArr(text)
log(ts)
arr[arr[int]] grid = '[[1, 2], [3], []]'.toArr(arr[int])
log(grid)
arr[float] fs = '[1, 2.5, -0.125, 1e3]'.toArr(float)
log(fs)
arr[bool] bs = '[true, false]'.toArr(bool)
log(bs)
arr[map[int]] ms = '[{"a": 1}, {}]'.toArr(map[int])
log(ms)
arr[Pt] pts = '[{"x": 1, "y": 2}, {"x": 3}]'.toArr(Pt)
log(pts)
arr[int] empty = ' [ ] '.toArr(int)
log(empty.length)
arr[ascii] codes = '["ab", "c"]'.toArr(ascii)
log(typeof codes[0])
log(codes)
amor arr[int] grow = []
arr[int] parsed = '[4, 5]'.toArr(int)
log(parsed.length)
