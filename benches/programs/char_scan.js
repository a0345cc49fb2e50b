// Walk a ~1.7 MB ascii text counting identifier runs ([A-Za-z0-9_]+).
// The text is generated deterministically (a 1,700-character chunk from a
// small LCG, doubled ten times: 1,740,800 bytes), identically in every
// language.
const alphabet = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_ .,;(){}=+-*/";
let s = "";
let seed = 42;
for (let k = 0; k < 1700; k++) {
  seed = (seed * 75 + 74) % 65537;
  s = s + alphabet[seed % alphabet.length];
}
for (let d = 0; d < 10; d++) {
  s = s + s;
}

let runs = 0;
let inword = false;
const n = s.length;
for (let i = 0; i < n; i++) {
  const c = s.charCodeAt(i);
  const w = (c >= 97 && c <= 122) || (c >= 65 && c <= 90) || (c >= 48 && c <= 57) || c === 95;
  if (w && !inword) {
    runs++;
  }
  inword = w;
}
console.log(`${n} ${runs}`);
