// §8.3 % with a negative operand: the result takes the sign of the dividend
// (truncating remainder, as C and Rust compute it)
log(-7 % 3)
log(7 % -3)
log(-7 % -3)
log(-7.5 % 2)
