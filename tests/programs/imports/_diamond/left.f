// helper: paths are relative to the importing file
import base.f
log('left')
int func leftValue() {
    return baseValue() + 1
}
