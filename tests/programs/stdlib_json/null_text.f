// Parsing a null text throws like malformed JSON
struct P {
    id:int
}
text src = null
try {
    P p = src.toStruct(P)
} catch (e:text) {
    log(e)
}
