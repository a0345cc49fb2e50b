// The fetch-and-parse benchmark's Bun peer (benches/net/README.md): N
// sequential `fetch` calls of URL (Bun reuses the keep-alive connection),
// each body parsed with JSON.parse.
//     bun benches/net/fetch/fetch.js URL [N]      (N defaults to 200)
// Prints `fetched N, temperature_2m T, wind_speed_10m W` (the last
// response's values) on stdout and `loop_ms=…` (the loop's own time) on
// stderr.
const url = process.argv[2];
const n = Number(process.argv[3] || 200);
if (!url || !Number.isInteger(n) || n < 1) {
  console.error('usage: bun fetch.js URL [N]');
  process.exit(2);
}

const start = performance.now();
let weather;
for (let i = 0; i < n; i++) {
  const res = await fetch(url);
  weather = JSON.parse(await res.text());
}
const elapsed = performance.now() - start;
const { temperature_2m, wind_speed_10m } = weather.current;
console.log(`fetched ${n}, temperature_2m ${temperature_2m}, wind_speed_10m ${wind_speed_10m}`);
console.error(`loop_ms=${elapsed.toFixed(3)}`);
