// Only locals and parameters may shadow a built-in function; a global, a
// function or a test group may not, and nothing may take the name of a
// built-in value or namespace.
int now = 5
void func close(x:int) {
}
void func f(Math:int) {
    int argv = 1
}
