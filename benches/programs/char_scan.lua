-- Walk a ~1.7 MB ascii text counting identifier runs ([A-Za-z0-9_]+).
-- The text is generated deterministically (a 1,700-character chunk from a
-- small LCG, doubled ten times: 1,740,800 bytes), identically in every
-- language.
local alphabet = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_ .,;(){}=+-*/"
local s = ""
local seed = 42
for k = 0, 1700 - 1 do
  seed = (seed * 75 + 74) % 65537
  local j = seed % #alphabet + 1
  s = s .. string.sub(alphabet, j, j)
end
for d = 0, 10 - 1 do
  s = s .. s
end

local byte = string.byte
local runs = 0
local inword = false
local n = #s
for i = 1, n do
  local c = byte(s, i)
  local w = (c >= 97 and c <= 122) or (c >= 65 and c <= 90) or (c >= 48 and c <= 57) or c == 95
  if w and not inword then
    runs = runs + 1
  end
  inword = w
end
print(string.format("%d %d", n, runs))
