-- SPDX-License-Identifier: GPL-2.0-only
-- Tables: a sieve, a hash of strings, sorting with a Lua comparator,
-- insert and remove.
local function sieve(n)
  local comp, count = {}, 0
  for i = 2, n do
    if not comp[i] then
      count = count + 1
      for j = i * i, n, i do comp[j] = true end
    end
  end
  return count
end
print("primes", sieve(50000))

local h = {}
for i = 1, 5000 do
  local k = "k" .. (i * 7919 % 10007)
  h[k] = (h[k] or 0) + i
end
local keys, total = 0, 0
for k, v in pairs(h) do keys = keys + 1; total = total + v end
print("hash", keys, total)

-- a linear congruential generator: the same numbers on every Lua
local seed = 42
local function rand(n)
  seed = (seed * 1103515245 + 12345) % 2147483648
  return seed % n
end
local a = {}
for i = 1, 4000 do a[i] = { key = rand(100000), id = i } end
table.sort(a, function(x, y)
  if x.key ~= y.key then return x.key < y.key end
  return x.id < y.id
end)
local chk = 0
for i = 1, #a, 97 do chk = (chk * 31 + a[i].key + a[i].id) % 1000000007 end
print("sort", chk)

local q = {}
for i = 1, 8000 do table.insert(q, i) end
local s = 0
while #q > 0 do s = s + table.remove(q) end
print("queue", s)
