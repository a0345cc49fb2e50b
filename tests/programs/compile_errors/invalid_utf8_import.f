// An imported file that is not UTF-8 is reported in that file, at the
// first bad byte.
import _utf8/bad.f
log(x)
