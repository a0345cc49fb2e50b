// §6.2 importing a helper from a subdirectory
import _helpers/greet.f
log(greet('world'))
