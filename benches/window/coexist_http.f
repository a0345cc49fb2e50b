// Coexistence of a window and a listening port (§19.7), Festina only
// (benches/window/coexist.py runs it): an HTTP server on 127.0.0.1:PORT
// answering `ok`, beside one of four loads on the same event loop.
//
//     festina benches/window/coexist_http.f MODE PORT
//
// MODE `none`: nothing else. `window`: an open window, idle (its frame
// tick only). `draw`: the window benchmark's frame (shapes.f: an 800x600
// fill, 1,000 filled rectangles and 1,000 filled circles) drawn again and
// again from a 0 ms setTimeout chain, offscreen (no window). `render`: the
// same frames presented with render() in a window, continuously.
// `GET /frames` answers the number of frames drawn so far; `GET /quit`
// answers, then ends the program.

import scene.f

text mode = argv.length > 1 ? argv[1] : 'none'
int port = argv.length > 2 ? argv[2].toInt() : 8080
int frames = 0

void func frame() {
    drawScene()
    if mode == 'render' {
        render()
    }
    frames++
    setTimeout(frame, 0)
}

on request(req:http) {
    text path = parseURL(req.url).pathname
    if path == '/frames' {
        req.send({'body': `${frames}`})
    } else if path == '/quit' {
        req.send({'body': 'bye'})
        setTimeout(quit, 50)
    } else {
        req.send({'body': 'ok'})
    }
}

void func quit() {
    close(0)
}

if mode == 'window' {
    drawRect(0, 0, 800, 600, white)
    render()
}
if mode == 'draw' || mode == 'render' {
    frame()
}
openPort(port)
