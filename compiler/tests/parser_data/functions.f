int func add(a:int, b:int) {
    return a + b
}

void func sayHello() {
    log('Hello')
}

User? func find(users:arr[User], id:int) {
    for int i = 0, i < users.length, i++ {
        if users[i].id == id { return users[i] }
    }
    return null
}

func[int]:int func twice(f:func[int]:int) {
    return f
}
