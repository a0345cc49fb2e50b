// §6.2 one global scope: an imported function may call a function declared by the importer
import _helpers/calls_main.f
int func mainValue() {
    return 21
}
log(twiceMain())
