// §10.4 else-if chains take the first true branch
text func grade(score:int) {
    if score >= 90 {
        return 'A'
    } else if score >= 80 {
        return 'B'
    } else if score >= 70 {
        return 'C'
    } else {
        return 'F'
    }
}
log(grade(95))
log(grade(90))
log(grade(85))
log(grade(70))
log(grade(12))
