-- SPDX-License-Identifier: GPL-2.0-only
-- Objects: metatables, __index chains, methods, __add and __eq,
-- coroutines.
local Point = {}
Point.__index = Point
function Point.new(x, y) return setmetatable({ x = x, y = y }, Point) end
function Point.__add(a, b) return Point.new(a.x + b.x, a.y + b.y) end
function Point.__eq(a, b) return a.x == b.x and a.y == b.y end
function Point:norm1() return math.abs(self.x) + math.abs(self.y) end

local Shape = {}
Shape.__index = Shape
function Shape.new(kind) return setmetatable({ kind = kind, pts = {} }, Shape) end
function Shape:add(p) self.pts[#self.pts + 1] = p; return self end
function Shape:perimeter1()
  local s = 0
  for i = 2, #self.pts do
    local d = self.pts[i] + Point.new(-self.pts[i - 1].x, -self.pts[i - 1].y)
    s = s + d:norm1()
  end
  return s
end

local Poly = setmetatable({}, { __index = Shape })
Poly.__index = Poly
function Poly.new() local o = Shape.new("poly"); return setmetatable(o, Poly) end

local total, eq = 0, 0
for i = 1, 800 do
  local p = Poly.new()
  for j = 1, 8 do p:add(Point.new(i % 17 - j, j * 3 - i % 5)) end
  total = total + p:perimeter1()
  if p.pts[1] == Point.new(i % 17 - 1, 3 - i % 5) then eq = eq + 1 end
end
print("shapes", total, eq)

local function gen(n)
  return coroutine.wrap(function()
    for i = 1, n do coroutine.yield(i * i % 1009) end
  end)
end
local s = 0
for v in gen(8000) do s = s + v end
print("coroutine", s)
