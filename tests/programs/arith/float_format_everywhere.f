// §8.21 the %g form is used by log, templates and .toText() alike
float x = 0.1 + 0.2
float big = 2500000.0
log(x)
log(`x=${x} big=${big}`)
text t = big.toText()
log(t)
log(x.toText() + '!')
arr[float] fs = [x, big, 2.0]
log(fs)
