// expect: 4:5 struct declarations are only allowed at the top level
// §11.2 a struct is declared at the top level only
void func f() {
    struct Local {
        x:int
    }
}
