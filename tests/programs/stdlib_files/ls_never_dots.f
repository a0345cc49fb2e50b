// ls never reports '.' or '..' (§16.5), even for the current directory.
bool sawDot = false
arr[text] names = ls('.')
for int i = 0, i < names.length, i++ {
    if names[i] == '.' || names[i] == '..' {
        sawDot = true
    }
}
log(sawDot)
log(names.length > 0)
