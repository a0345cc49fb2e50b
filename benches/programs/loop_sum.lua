-- A counted loop around 64-bit multiply, add and modulo.
local total = 0
for i = 0, 100000000 - 1 do
  total = (total * 1000003 + i) % 1000000007
end
print(string.format("%d", total))
