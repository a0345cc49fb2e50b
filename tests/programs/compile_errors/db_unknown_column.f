// An unknown column is a compile error.
DatabaseURL = ':memory:'
table T {
    id:int
}
arr[T] ts = sqlite('SELECT id FROM T')
log(ts[0].nmae)
