// §6.3 top-level statements of imported files run before the entry file's, in import order
import _order/second.f
import _order/first.f
log('main')
