// §16.4 integers parse with full 64-bit precision
struct N {
    big:int
    small:int
    exact:int
    f:float
}
N n = '{"big": 9223372036854775807, "small": -9223372036854775808, "exact": 9007199254740993, "f": 12345678901234567890}'.toStruct(N)
log(n.big)
log(n.small)
log(n.exact)
log(n.f)
arr[int] whole = '[1.0, 2e3, -0.0, 5E-0]'.toArr(int)
log(whole)
arr[float] fs = '[0.1, -2, 1.5e-7]'.toArr(float)
log(fs)
