-- Repeated appends to one string: s = s .. piece.
local s = ""
for i = 0, 15000 - 1 do
  s = s .. "abcdefghij"
end
print(#s)
