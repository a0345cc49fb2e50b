// A handler sees every global, like a function (§11.5).
int count = 0
text name = 'festina'
on exit(code:int) {
    log(`${name}: ${count} steps, code ${code}`)
    int local = code * 2
    log(local)
}
for int i = 0, i < 5, i++ {
    count++
}
close(0)
