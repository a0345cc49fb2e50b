// §20.7: a thread's own database; §20.8: its own HTTP context.
struct Count {
    n: int
}
text name = 'x.sqlite'
thread late {
    int n = 0
    DatabaseURL = 'late.sqlite'
}
thread computed {
    DatabaseURL = name
}
thread pooled[2] {
    DatabaseURL = 'pool.sqlite'
}
thread same {
    DatabaseURL = 'festina.sqlite'
}
thread twin {
    DatabaseURL = 'twin.sqlite'
}
thread twin2 {
    DatabaseURL = 'twin.sqlite'
}
thread nodb {
    on message(w: thread, n: int) {
        arr[Count] c = sqlite('SELECT 1 AS n')
        openPort(8080)
    }
}
