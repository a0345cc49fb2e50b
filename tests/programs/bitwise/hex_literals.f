// Hexadecimal int literals, 0x or 0X, digits in either case. Sixteen
// digits give the 64-bit pattern.
log(0xff)
log(0x0)
log(0xDEADBEEF)
log(0xAbCdEf)
log(0XABCDEF)
log(0x7FFFFFFFFFFFFFFF)
log(0xFFFFFFFFFFFFFFFF)
log(0x8000000000000000)
// Packing a color triple and reading it back.
int r = 0xde
int g = 0xad
int b = 0xbe
int packed = (r << 16) | (g << 8) | b
log(packed)
log((packed >> 16) & 0xff)
log((packed >> 8) & 0xff)
log(packed & 0xff)
