// chart.f: a bar chart of a small data set, drawn offscreen and saved as
// a PNG (§17). No window and no display are needed.
//
//     festina chart.f [out.png]
//
// writes chart.png (or the file named) in the current directory: monthly
// rainfall as bars with value labels, a gridded axis, a legend and a
// title, on a white background. Font literals change only the parts
// they name (§8.14), so the label font says `normal` to drop the title's
// bold.

struct Month {
    name:text
    rain:int
}

text out = 'chart.png'
if argv.length > 1 {
    out = argv[1]
}

arr[Month] months = [
    {'name': 'Jan', 'rain': 78},
    {'name': 'Feb', 'rain': 61},
    {'name': 'Mar', 'rain': 55},
    {'name': 'Apr', 'rain': 43},
    {'name': 'May', 'rain': 48},
    {'name': 'Jun', 'rain': 36},
    {'name': 'Jul', 'rain': 22},
    {'name': 'Aug', 'rain': 29},
    {'name': 'Sep', 'rain': 51},
    {'name': 'Oct', 'rain': 84},
    {'name': 'Nov', 'rain': 97},
    {'name': 'Dec', 'rain': 88},
]

color white = 'white'
color ink = '#2b3542'
color grid = '#d8dde6'
color bar = 'steelblue'
color wet = '#c0392b'
color none = 'none'
font title = 'bold 22px sans-serif'
font label = 'normal 13px sans-serif'
font small = '11px'

setClientWidth(640)
setClientHeight(400)
int left = 60
int top = 60
int plotW = 540
int plotH = 270
int maxRain = 100

// The background and the title.
drawRect(0, 0, clientWidth, clientHeight, white)
fillStyle(ink)
changeFont(title)
text heading = 'Monthly rainfall (mm)'
drawText(heading, Math.floorDiv(clientWidth - measureTextWidth(heading), 2), 36)

// Grid lines every 20 mm, with their values on the axis.
changeFont(label)
for int v = 0, v <= maxRain, v = v + 20 {
    int y = top + plotH - Math.floorDiv(v * plotH, maxRain)
    drawRect(left, y, plotW, 1, grid)
    text t = v.toText()
    drawText(t, left - 8 - measureTextWidth(t), y + 5)
}

// The bars, the wettest months in another colour, with their values.
int slot = Math.floorDiv(plotW, months.length)
for int i = 0, i < months.length, i++ {
    Month m = months[i]
    int h = Math.floorDiv(m.rain * plotH, maxRain)
    int x = left + i * slot + 6
    color c = bar
    if m.rain >= 80 {
        c = wet
    }
    drawRect(x, top + plotH - h, slot - 12, h, c)
    changeFont(small)
    text v = m.rain.toText()
    drawText(v, x + Math.floorDiv(slot - 12 - measureTextWidth(v), 2), top + plotH - h - 5)
    changeFont(label)
    drawText(m.name, x + Math.floorDiv(slot - 12 - measureTextWidth(m.name), 2), top + plotH + 20)
}

// The axes.
drawRect(left, top, 1, plotH + 1, ink)
drawRect(left, top + plotH, plotW, 1, ink)

// A legend above the dry summer months.
drawRect(300, 66, 130, 48, white, grid)
drawRect(310, 76, 12, 12, bar)
drawRect(310, 96, 12, 12, wet)
fillStyle(ink)
changeFont(small)
drawText('rain', 330, 86)
drawText('80 mm or more', 330, 106)

if saveCanvas(out) {
    img saved = out
    log(`wrote ${out} (${saved.width}x${saved.height})`)
} else {
    fail(`cannot write ${out}`)
}
