// §16.2 random() is a float in [0, 1)
int inRange = 0
for int i = 0, i < 1000, i++ {
    float r = Math.random()
    if r >= 0.0 && r < 1.0 {
        inRange++
    }
}
log(inRange)
int idx = Math.floor(Math.random() * 10)
log(idx >= 0 && idx < 10)
float first = Math.random()
bool differs = false
for int i = 0, i < 100, i++ {
    if Math.random() != first {
        differs = true
    }
}
log(differs)
