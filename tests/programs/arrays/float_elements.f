// §8.21 float elements render with %g; a non-finite float renders null
int zero = 0
arr[float] fs = [1.5, 0.1 + 0.2]
fs.push(1 / zero)
fs.push(1000000.0)
log(fs)
