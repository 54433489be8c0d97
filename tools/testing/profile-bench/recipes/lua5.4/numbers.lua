-- SPDX-License-Identifier: GPL-2.0-only
-- Numbers: integer and float arithmetic, a Mandelbrot set, a matrix
-- product.
local inside = 0
local N = 40
for y = 0, N - 1 do
  local ci = 2.0 * y / N - 1.0
  for x = 0, N - 1 do
    local cr = 2.5 * x / N - 2.0
    local zr, zi, k = 0.0, 0.0, 0
    while k < 50 and zr * zr + zi * zi <= 4.0 do
      zr, zi = zr * zr - zi * zi + cr, 2.0 * zr * zi + ci
      k = k + 1
    end
    if k == 50 then inside = inside + 1 end
  end
end
print("mandelbrot", inside)

local function matrix(n, f)
  local m = {}
  for i = 1, n do
    m[i] = {}
    for j = 1, n do m[i][j] = f(i, j) end
  end
  return m
end
local n = 30
local a = matrix(n, function(i, j) return (i * j) % 7 end)
local b = matrix(n, function(i, j) return (i + j) % 5 end)
local c = matrix(n, function() return 0 end)
for i = 1, n do
  for j = 1, n do
    local s = 0
    for k = 1, n do s = s + a[i][k] * b[k][j] end
    c[i][j] = s
  end
end
local tr = 0
for i = 1, n do tr = tr + c[i][i] end
print("matrix", tr)

local x, bits = 0, 0
for i = 1, 40000 do
  x = (x ~ (i << 3)) & 0xffff
  bits = bits + (x >> 4) % 3
end
print("bits", x, bits, string.format("%.6f", math.sqrt(bits)))
