// expect: 3:16 unknown regex flag 'x' (allowed: i, g)
// §7.5.5 regex flags are i and g only
regex r = /ab+/x
