// A counted loop around 64-bit multiply, add and modulo.
// Every intermediate stays below 2^53, so doubles are exact.
let total = 0;
for (let i = 0; i < 100000000; i++) {
  total = (total * 1000003 + i) % 1000000007;
}
console.log(total);
