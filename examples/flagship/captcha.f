// golden: skip
// (A server: festina-cli/tests/net/examples.rs fetches /captcha with a
// real client and decodes the PNG; benches/canvas/captcha.py loads it.)
//
// The CAPTCHA endpoint of the mission documents: every GET /captcha
// answers a fresh 160x60 PNG with five jittered glyphs over speckled
// noise, drawn into an offscreen image (no window, no display) and sent
// as the response body (an img body goes out as PNG bytes, §19.2).
// Anything else answers 200 with an empty body.
//
//     PORT=8080 festina examples/flagship/captcha.f
//     curl -s localhost:8080/captcha > captcha.png
//
// The port is the first argument, else $PORT, else 8080. Math.random() drives the
// code, the noise and the jitter: fine for looks, not for secrets.

text CHARS = 'ABCDEFGHJKLMNPQRSTUVWXYZ23456789'
int CHARS_LEN = CHARS.split('').length
int CODE_LEN = 5

text func randomCode(n:int) {
    text code = ''
    for int i = 0, i < n, i++ {
        int idx = Math.floor(Math.random() * CHARS_LEN)
        code = `${code}${CHARS[idx]}`
    }
    return code
}

color bg = '#eef1f5'
color ink = '#2b3542'
font captchaFont = 'bold 28px sans-serif'

text port = environment.PORT
if argv.length > 1 {
    port = argv[1]
}
openPort(port == null ? 8080 : port.toInt())

on request(req:http) {
    if parseURL(req.url).pathname != '/captcha' {
        req.ok()
        return
    }

    text code = randomCode(CODE_LEN)
    img canvas = blankImage(160, 60)
    canvas.drawRect(0, 0, 160, 60, bg)

    for int i = 0, i < 40, i++ {  // speckled noise
        int shade = 180 + Math.floor(Math.random() * 40)
        fillStyle(shade, shade, shade)
        canvas.drawPixel(Math.floor(Math.random() * 160), Math.floor(Math.random() * 60))
    }

    fillStyle(ink)
    changeFont(captchaFont)
    for int i = 0, i < CODE_LEN, i++ {  // jittered glyphs
        int y = 40 + Math.round((Math.random() - 0.5) * 12)
        canvas.drawText(code[i], 15 + i * 26, y)
    }

    // A real deployment would keep `code` for this visitor (a table row,
    // or s.state on an upgraded socket) to check the answer later.
    req.send({'headers': {'content-type': 'image/png'}, 'body': canvas})
}
