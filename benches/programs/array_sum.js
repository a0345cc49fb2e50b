// 2,000,000 fresh 8-element arrays, each summed by index.
let total = 0;
for (let i = 0; i < 2000000; i++) {
  const a = [i, i + 1, i + 2, i + 3, i + 4, i + 5, i + 6, i + 7];
  for (let j = 0; j < a.length; j++) {
    total = total + a[j];
  }
}
console.log(total);
