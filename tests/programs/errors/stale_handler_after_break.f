// §10.10 a try left by break is no longer active
for int i = 0, i < 3, i++ {
    try {
        if i == 1 {
            break
        }
        log(`iteration ${i}`)
    } catch (e:text) {
        log('stale handler ran')
    }
}
log('after loop')
throw 'escaped'
