// expect: 4:20 enum 'Outer' cannot contain another enum ('Inner')
// §8.11 an enum member may not be another enum
enum Inner = int, text
enum Outer = bool, Inner
