// color literals (§8.14): CSS names in any case, #rgb and #rrggbb, none
// and transparent (the same value as null); colors are ordinary values.
color a = 'red'
color b = 'RED'
color c = '#f00'
color d = '#FF0000'
log(a == b && b == c && c == d)
color n = 'none'
color t = 'Transparent'
color z = null
log(n == null && t == null && z == n)
color grey = 'grey'
color gray = 'gray'
log(grey == gray)
log(a != grey)
color rp = 'rebeccapurple'
color lg = 'lightgoldenrodyellow'
drawPixel(0, 0, rp)
drawPixel(1, 0, lg)
log(getPixelColor(0, 0) == rp)
log(getPixelColor(1, 0) == lg)
color hex = '#663399'
log(rp == hex)
color func pick(first:bool, x:color, y:color) {
    return first ? x : y
}
log(pick(false, a, rp) == hex)
struct Theme {
    bg:color
    fg:color
}
Theme th = {'bg': 'white', 'fg': '#000'}
color black = 'black'
log(th.fg == black && th.bg != black)
arr[color] palette = ['navy', 'teal', '#123456']
palette.push(a)
log(palette.length)
drawPixel(2, 0, palette[2])
color c3 = '#123456'
log(getPixelColor(2, 0) == c3)
th.fg = 'tomato'
color tomato = 'tomato'
log(th.fg == tomato)
log(getPixelColor(3, 0) == null)
