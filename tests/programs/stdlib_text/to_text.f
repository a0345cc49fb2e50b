// §16.3 int, float and bool have .toText(); it renders as templates do
log(42.toText())
log((0.1 + 0.2).toText())
log(1000000.0.toText())
log(true.toText())
float nothing = null
log(nothing.toText())
log(typeof 1.5.toText())
int n = -7
log(n.toText() + '!')
log(3.toFloat().toText())
