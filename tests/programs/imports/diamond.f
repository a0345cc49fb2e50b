// §6.2 a file reachable along two paths is processed once; imported files run
// before the files that import them, in import order
import _diamond/left.f
import _diamond/right.f
log('main')
log(leftValue() + rightValue())
