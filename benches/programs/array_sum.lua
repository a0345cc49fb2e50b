-- 2,000,000 fresh 8-element arrays, each summed by index.
local total = 0
for i = 0, 2000000 - 1 do
  local a = {i, i + 1, i + 2, i + 3, i + 4, i + 5, i + 6, i + 7}
  for j = 1, #a do
    total = total + a[j]
  end
end
print(string.format("%d", total))
