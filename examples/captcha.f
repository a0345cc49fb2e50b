// captcha.f: the picture of the CAPTCHA endpoint of the mission documents,
// drawn into a fresh 160x60 image with no window and no display, and
// saved as a PNG (§17.6, §16.6).
//
//     festina captcha.f [out.png]
//
// The endpoint answers each request with such an image as its body (an
// `img` is a legal HTTP body, sent as PNG); that part comes with the
// HTTP server. Math.random() seeds the noise and the jitter: fine for
// looks, not for secrets.

text CHARS = 'ABCDEFGHJKLMNPQRSTUVWXYZ23456789'
int CODE_LEN = 5

text func randomCode(n:int) {
    text code = ''
    for int i = 0, i < n, i++ {
        int idx = Math.floor(Math.random() * CHARS.length)
        code = `${code}${CHARS[idx]}`
    }
    return code
}

color bg = '#eef1f5'
color ink = '#2b3542'
font captchaFont = 'bold 28px sans-serif'

img func captcha(code:text) {
    img canvas = blankImage(160, 60)
    canvas.drawRect(0, 0, 160, 60, bg)
    for int i = 0, i < 40, i++ {  // speckled noise
        int shade = 180 + Math.floor(Math.random() * 40)
        fillStyle(shade, shade, shade)
        canvas.drawPixel(Math.floor(Math.random() * 160), Math.floor(Math.random() * 60))
    }
    fillStyle(ink)
    changeFont(captchaFont)
    for int i = 0, i < code.length, i++ {  // jittered glyphs
        int y = 40 + Math.round((Math.random() - 0.5) * 12)
        canvas.drawText(code[i], 15 + i * 26, y)
    }
    return canvas
}

text out = 'captcha.png'
if argv.length > 1 {
    out = argv[1]
}
text code = randomCode(CODE_LEN)
img picture = captcha(code)
if picture.save(out) {
    img back = out
    log(`wrote ${out} (${back.width}x${back.height}, ${code.length} characters)`)
} else {
    fail(`cannot write ${out}`)
}
