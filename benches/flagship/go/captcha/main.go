// CAPTCHA endpoint: /captcha answers a fresh 160x60 PNG of five jittered glyphs over speckled noise.
package main

import (
	"image"
	"image/color"
	"image/draw"
	"image/png"
	"math"
	"math/rand"
	"net/http"
	"os"
	"time"

	"golang.org/x/image/font"
	"golang.org/x/image/font/basicfont"
	"golang.org/x/image/math/fixed"
)

const chars = "ABCDEFGHJKLMNPQRSTUVWXYZ23456789"
const codeLen = 5

var bg = color.RGBA{0xee, 0xf1, 0xf5, 0xff}
var ink = color.RGBA{0x2b, 0x35, 0x42, 0xff}

func randomCode(n int) string {
	code := make([]byte, n)
	for i := range code {
		code[i] = chars[rand.Intn(len(chars))]
	}
	return string(code)
}

func captcha(w http.ResponseWriter, r *http.Request) {
	code := randomCode(codeLen)
	canvas := image.NewRGBA(image.Rect(0, 0, 160, 60))
	draw.Draw(canvas, canvas.Bounds(), image.NewUniform(bg), image.Point{}, draw.Src)
	for i := 0; i < 40; i++ {
		shade := uint8(180 + rand.Intn(40))
		canvas.Set(rand.Intn(160), rand.Intn(60), color.RGBA{shade, shade, shade, 0xff})
	}
	d := font.Drawer{Dst: canvas, Src: image.NewUniform(ink), Face: basicfont.Face7x13}
	for i := 0; i < codeLen; i++ {
		y := 40 + int(math.Round((rand.Float64()-0.5)*12))
		d.Dot = fixed.P(15+i*26, y)
		d.DrawString(code[i : i+1])
	}
	w.Header().Set("content-type", "image/png")
	png.Encode(w, canvas)
}

func main() {
	rand.Seed(time.Now().UnixNano())
	port := os.Getenv("PORT")
	if port == "" {
		port = "8080"
	}
	http.HandleFunc("/captcha", captcha)
	http.HandleFunc("/", func(w http.ResponseWriter, r *http.Request) {})
	panic(http.ListenAndServe("127.0.0.1:"+port, nil))
}
