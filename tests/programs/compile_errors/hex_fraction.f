// A hexadecimal literal has no fractional form, and needs digits.
log(0x1.8)
log(0x)
log(0xFG)
