// The fetch-and-parse benchmark's Festina side (benches/net/README.md):
// N sequential `req.send()` GETs of URL (one keep-alive connection,
// reused), each body parsed with `.toStruct(Weather)`.
//     festina compile fetch.f -o fetch && ./fetch URL [N]   (N defaults to 200)
// Prints `fetched N, temperature_2m T, wind_speed_10m W` (the last
// response's values), then `loop_ms=…` (the loop's own time, whole
// milliseconds from now()) on a line of its own: Festina writes stderr
// only through fail(), so run.py takes that line off stdout.

struct Current {
    temperature_2m:float
    wind_speed_10m:float
}

struct Weather {
    current:Current
}

if argv.length < 2 {
    fail('usage: fetch URL [N]')
}
int n = 200
if argv.length > 2 {
    n = argv[2].toInt()
    if n == null || n < 1 {
        fail('N must be a positive number')
    }
}

http req = {'url': argv[1]}
Weather w
int start = now()
for int i = 0, i < n, i++ {
    req.send()
    if req.code != 200 {
        fail(`status ${req.code}`)
    }
    w = req.toText().toStruct(Weather)
}
int elapsed = now() - start
log(`fetched ${n}, temperature_2m ${w.current.temperature_2m}, wind_speed_10m ${w.current.wind_speed_10m}`)
log(`loop_ms=${elapsed}`)
