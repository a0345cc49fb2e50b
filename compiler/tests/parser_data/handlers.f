on mouseDown(x:int, y:int, button:int) {
    log(`${x},${y}`)
}
on keyDown(key:text) { log(key) }
on resize() { }
on request(req:http) {
    req.send({'code': 200, 'body': 'ok'})
}
on request use workers
on exit(code:int) { log(code) }
