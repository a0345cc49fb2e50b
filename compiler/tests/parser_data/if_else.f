if a { log(1) }
if (a || b) && c {
    log(2)
} else if d {
    log(3)
}
else {
    log(4)
}
if x == 1 { } else { }
