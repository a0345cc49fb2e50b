// The message round-trip benchmark's Bun peer (benches/net/README.md): main
// posts N messages to one Worker (roundtrip_worker.js), which posts each
// back; structured clone both ways.
//     bun benches/net/threads/roundtrip.js pingpong|burst [N]   (N defaults to 100000)
// pingpong: one message in flight; the next is posted when the reply
// arrives. burst: all N are posted at once, then the N replies are awaited.
// Replies must come back in order. Prints `round trips N, last id N-1` on
// stdout and `loop_ms=…` on stderr.
const mode = process.argv[2];
const n = Number(process.argv[3] || 100000);
if ((mode !== 'pingpong' && mode !== 'burst') || !Number.isInteger(n) || n < 1) {
  console.error('usage: bun roundtrip.js pingpong|burst [N]');
  process.exit(2);
}

const worker = new Worker(new URL('./roundtrip_worker.js', import.meta.url).href);
// Wait until the worker runs before timing (its start-up is not a round trip).
await new Promise((resolve) => {
  worker.onmessage = resolve;
  worker.postMessage({ id: -1, text: 'ready?' });
});

let start;
let expected = 0;
await new Promise((resolve, reject) => {
  worker.onmessage = (e) => {
    if (e.data.id !== expected) {
      reject(new Error(`reply ${e.data.id} out of order (expected ${expected})`));
      return;
    }
    expected++;
    if (expected === n) resolve();
    else if (mode === 'pingpong') worker.postMessage({ id: expected, text: 'hello' });
  };
  start = performance.now();
  if (mode === 'pingpong') worker.postMessage({ id: 0, text: 'hello' });
  else for (let i = 0; i < n; i++) worker.postMessage({ id: i, text: 'hello' });
});
const elapsed = performance.now() - start;
worker.terminate();
console.log(`round trips ${n}, last id ${expected - 1}`);
console.error(`loop_ms=${elapsed.toFixed(3)}`);
