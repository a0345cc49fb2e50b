// A desktop weather app: a window showing Berlin's temperature and wind
// from Open-Meteo (or $WEATHER_URL), fetched in the background and
// refreshed every ten minutes (README.md).
struct Current {
    temperature_2m:float
    wind_speed_10m:float
}
struct Weather {
    current:Current
}

text URL = environment.WEATHER_URL == null ? 'https://api.open-meteo.com/v1/forecast?latitude=52.52&longitude=13.41&current=temperature_2m,wind_speed_10m' : environment.WEATHER_URL
float temp = 0.0
float wind = 0.0
bool loaded = false

color bg = '#1e2a38'
color ink = '#f1f6fb'
font bigFont = 'bold 48px sans-serif'
font smallFont = 'normal 16px sans-serif'  // 'normal': not bigFont's bold

void func draw() {
    fillStyle(bg)
    drawRect(0, 0, 320, 180)
    fillStyle(ink)
    changeFont(smallFont)
    drawText('Berlin', 20, 30)
    changeFont(bigFont)
    drawText(loaded ? `${Math.round(temp)}°C` : '…', 20, 100)
    changeFont(smallFont)
    drawText(loaded ? `wind ${Math.round(wind)} km/h` : '', 20, 150)
    render()
}

void func onWeather(r:http) {
    if r.code == null {
        log(`weather request failed: ${r.toText()}`)
        return
    }
    if r.code != 200 {
        log(`weather request failed: HTTP ${r.code}`)
        return
    }
    try {
        Weather w = r.toText().toStruct(Weather)
        temp = w.current.temperature_2m
        wind = w.current.wind_speed_10m
        loaded = true
        draw()
    } catch (e:text) {
        log(`weather answer not understood: ${e}`)
    }
}

void func fetchWeather() {
    http {'url': URL, 'method': 'GET', 'callback': onWeather}
}

setClientWidth(320)
setClientHeight(180)
draw()
fetchWeather()
setInterval(fetchWeather, 600000)  // refresh every 10 minutes
