// helper: paths are relative to the importing file
import base.f
log('right')
int func rightValue() {
    return baseValue() + 2
}
