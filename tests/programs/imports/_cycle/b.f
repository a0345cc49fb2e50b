// helper: closes the cycle
import a.f
int func fromB() {
    return 2
}
