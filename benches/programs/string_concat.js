// Repeated appends to one string: s = s + piece.
let s = "";
for (let i = 0; i < 15000; i++) {
  s = s + "abcdefghij";
}
console.log(s.length);
