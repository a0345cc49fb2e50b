// helper: a.f imports b.f, which imports a.f again
import b.f
int func fromA() {
    return 1
}
