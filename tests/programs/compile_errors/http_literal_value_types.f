void func cb(n:int) {
}
http r = {'url': 5, 'code': 'ok', 'headers': ['a'], 'callback': cb}
