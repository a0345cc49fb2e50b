// §10.5 a while loop controlled by a bool variable
bool running = true
int ticks = 0
while running {
    ticks++
    running = ticks < 4
}
log(ticks)
