// tolerance: 24
// drawText with fonts (§17.3, §8.14): literals with their parts in any
// order, parts left unchanged, changeFont(px, style, family), the fill
// colour and alpha; y is the baseline. Glyph edges depend on the
// FreeType and font versions, hence the tolerance.
setClientWidth(260)
setClientHeight(150)
color white = 'white'
color ink = '#223344'
color red = 'crimson'
font title = 'bold 24px sans-serif'
font small = '12px'
font slanted = 'serif italic'
font mono = 'monospace 14'
fillStyle(white)
drawRect(0, 0, 260, 150)
fillStyle(ink)
drawText('Default 16px', 5, 20)
changeFont(title)
drawText('Bold title', 5, 48)
changeFont(small)
drawText('small, still bold', 5, 66)
changeFont(slanted)
drawText('serif italic 12px', 5, 84)
changeFont(mono)
fillStyle(red)
drawText('monospace 14', 5, 102)
changeFont(20, 'bold italic', 'sans-serif')
fillAlpha(0.5)
drawText('alpha half', 5, 128)
fillAlpha(1.0)
changeFont(0, null, null)
drawText('', 5, 140)
log(measureTextWidth('abc') > 0)
log(saveCanvas('out.png'))
