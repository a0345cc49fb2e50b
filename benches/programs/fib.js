// Naive recursive Fibonacci: call and return cost.
function fib(n) {
  if (n < 2) return n;
  return fib(n - 1) + fib(n - 2);
}
console.log(fib(32));
