-- SPDX-License-Identifier: GPL-2.0-only
-- Strings: formatting, concatenation, patterns (string.find, gsub,
-- gmatch), byte and char.
local words = {}
for i = 1, 1500 do
  words[#words + 1] = string.format("w%05d-%x", i * 37 % 9973, i)
end
local text = table.concat(words, " ")
print("len", #text)

local n = 0
for w in text:gmatch("w(%d+)%-(%x+)") do n = n + tonumber(w) end
print("gmatch", n)

local r, k = text:gsub("(%d)(%d)", "%2%1")
print("gsub", #r, k)

local found = 0
local init = 1
while true do
  local s, e = string.find(text, "w0%d%d7", init)
  if not s then break end
  found = found + 1
  init = e + 1
end
print("find", found)

local b = 0
for i = 1, #text, 3 do b = (b * 131 + text:byte(i)) % 1000000007 end
print("bytes", b)

local parts = {}
for i = 1, 2500 do parts[i] = string.char(65 + i % 26) .. tostring(i) end
local joined = table.concat(parts, ",")
print("upper", #joined:lower(), joined:sub(1, 20), joined:rep(2, "|"):len())
