-- SPDX-License-Identifier: GPL-2.0-only
-- Calls and returns: recursion, varargs, closures, tail calls.
local function fib(n)
  if n < 2 then return n end
  return fib(n - 1) + fib(n - 2)
end

local function ack(m, n)
  if m == 0 then return n + 1 end
  if n == 0 then return ack(m - 1, 1) end
  return ack(m - 1, ack(m, n - 1))
end

local function sum(...)
  local s = 0
  for i = 1, select('#', ...) do s = s + select(i, ...) end
  return s
end

local function counter()
  local c = 0
  return function(k) c = c + k; return c end
end

local function loop(n, acc)
  if n == 0 then return acc end
  return loop(n - 1, acc + n % 7)
end

print("fib", fib(21))
print("ack", ack(2, 150))
local v = 0
for i = 1, 5000 do v = v + sum(i, 1, 2, 3, 4) end
print("sum", v)
local c = counter()
for i = 1, 25000 do c(i % 13) end
print("counter", c(0))
print("tail", loop(50000, 0))
