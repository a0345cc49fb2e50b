import   lib/helpers.f
test basicMath='basic math test'
basicMath(2+2,4)
on exit(code:int){log(code)}
const int LIMIT=10
DatabaseURL='x.sqlite'
thread worker [4] { log(1) }
