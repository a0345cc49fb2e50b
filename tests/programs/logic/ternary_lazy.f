// §9.14 ?: evaluates only the branch it selects
int func noisy(tag:text, v:int) {
    log(`evaluated ${tag}`)
    return v
}
int a = true ? noisy('then', 1) : noisy('else', 2)
int b = false ? noisy('then', 3) : noisy('else', 4)
log(a + b)
