// CAPTCHA endpoint: /captcha answers a fresh 160x60 PNG, five jittered
// glyphs over speckled noise (README.md).
text CHARS = 'ABCDEFGHJKLMNPQRSTUVWXYZ23456789'
color bg = '#eef1f5'
color ink = '#2b3542'
font captchaFont = 'bold 28px sans-serif'

on request(req:http) {
    if parseURL(req.url).pathname != '/captcha' {
        req.ok()
        return
    }
    img canvas = blankImage(160, 60)
    canvas.drawRect(0, 0, 160, 60, bg)
    for int i = 0, i < 40, i++ {  // speckled noise
        int shade = 180 + Math.floor(Math.random() * 40)
        fillStyle(shade, shade, shade)
        canvas.drawPixel(Math.floor(Math.random() * 160), Math.floor(Math.random() * 60))
    }
    fillStyle(ink)
    changeFont(captchaFont)
    for int i = 0, i < 5, i++ {  // the code: five jittered glyphs
        int y = 40 + Math.round((Math.random() - 0.5) * 12)
        canvas.drawText(CHARS[Math.floor(Math.random() * 32)], 15 + i * 26, y)
    }
    req.send({'headers': {'content-type': 'image/png'}, 'body': canvas})
}

openPort(environment.PORT == null ? 8080 : environment.PORT.toInt())
