// §6.2 paths are compared canonically: ./lib/util.f and lib/../lib/util.f are one file
import ./lib/util.f
import lib/../lib/util.f
log(add(1, 1))
