// font literals (§8.14) and text metrics (§17.5): parts in any order,
// omitted parts unchanged, changeFont(px, style, family); metrics need
// no display.
font big = '32px sans-serif'
font small = '10px'
font bold = 'bold'
font normal = 'normal'
font same1 = 'bold 14px serif'
font same2 = 'serif 14 BOLD'
int w16 = measureTextWidth('Hello')
log(w16 > 25 && w16 < 60)
changeFont(big)
int w32 = measureTextWidth('Hello')
log(w32 > w16 * 3 / 2)
changeFont(bold)
int wb = measureTextWidth('Hello')
log(wb > w32)
changeFont(small)
log(measureTextWidth('Hello') < w16)
changeFont(normal)
changeFont(32, null, null)
log(measureTextWidth('Hello') == w32)
log(measureTextWidth('') == 0)
log(measureTextHeight('') == 0)
log(measureTextHeight('x') < measureTextHeight('Xg'))
log(measureTextWidth('ii') < measureTextWidth('WW'))
changeFont(same1)
int s1 = measureTextWidth('Festina')
changeFont(same2)
log(measureTextWidth('Festina') == s1)
changeFont(0, 'italic', 'sans-serif')
changeFont(16, 'Regular', null)
log(measureTextWidth('Hello') == w16)
font nothing = null
changeFont(nothing)
log(measureTextWidth('Hello') == w16)
struct Label {
    caption:text
    face:font
}
Label l = {'caption': 'hi', 'face': 'bold 9px'}
log(l)
