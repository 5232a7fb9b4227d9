--- Wire framing for omegad (docs/protocol.md, "Transport and framing" and "Value rules").
---
--- A frame is a 4-byte big-endian length, then that many bytes holding one msgpack map.
--- This module is pure Lua over `vim.mpack`: no sockets, no editor API, so it is safe in luv
--- callbacks and testable byte by byte.
local M = {}

--- The daemon's default frame cap (server.max_frame_bytes); replies larger than this are refused.
M.MAX_FRAME = 8 * 1024 * 1024

local function err(code, message)
  return { code = code, message = message }
end

--- True when `s` is valid UTF-8 (msgpack str must be; the daemon refuses anything else).
function M.valid_utf8(s)
  local i, n = 1, #s
  local byte = string.byte
  while i <= n do
    local c = byte(s, i)
    if c < 0x80 then
      i = i + 1
    else
      local len, min
      if c >= 0xC2 and c <= 0xDF then
        len, min = 2, 0x80
      elseif c >= 0xE0 and c <= 0xEF then
        len, min = 3, 0x800
      elseif c >= 0xF0 and c <= 0xF4 then
        len, min = 4, 0x10000
      else
        return false
      end
      if i + len - 1 > n then
        return false
      end
      local cp = c % (2 ^ (7 - len))
      for k = i + 1, i + len - 1 do
        local b = byte(s, k)
        if b < 0x80 or b > 0xBF then
          return false
        end
        cp = cp * 64 + (b - 0x80)
      end
      if cp < min or cp > 0x10FFFF or (cp >= 0xD800 and cp <= 0xDFFF) then
        return false
      end
      i = i + len
    end
  end
  return true
end

-- Checks a value against the wire rules before it is encoded: text is UTF-8, map keys are
-- text, no functions or userdata (which vim.mpack would send as nil or refuse). Returns an
-- error message or nil.
local function check(value, depth, where)
  if value == vim.NIL then
    return nil
  end
  local t = type(value)
  if t == "string" then
    if not M.valid_utf8(value) then
      return where .. " is not valid UTF-8"
    end
  elseif t == "table" then
    if depth > 32 then
      return where .. " is nested too deeply"
    end
    for k, v in pairs(value) do
      local tk = type(k)
      if tk == "string" then
        if not M.valid_utf8(k) then
          return where .. " has a key that is not valid UTF-8"
        end
      elseif tk ~= "number" then
        return where .. " has a key of type " .. tk
      end
      local problem = check(v, depth + 1, where .. "." .. tostring(k))
      if problem then
        return problem
      end
    end
  elseif t == "number" then
    if value ~= value or value == math.huge or value == -math.huge then
      return where .. " is not a finite number"
    end
  elseif t ~= "boolean" then
    return where .. " has type " .. t .. ", which the wire cannot carry"
  end
  return nil
end

--- Encodes one message (a Lua table, encoded as a msgpack map) as a complete frame.
--- Returns the frame, or nil and an error `{code, message}` (`too_large` over `max_frame`,
--- `invalid_params` for a value the wire rules forbid).
function M.encode(message, max_frame)
  local problem = check(message, 0, "message")
  if problem then
    return nil, err("invalid_params", problem)
  end
  local ok, body = pcall(vim.mpack.encode, message)
  if not ok then
    return nil, err("invalid_params", "cannot encode message: " .. tostring(body))
  end
  local n = #body
  if n > (max_frame or M.MAX_FRAME) then
    return nil, err("too_large", ("frame of %d bytes exceeds the limit of %d"):format(n, max_frame or M.MAX_FRAME))
  end
  local header = string.char(math.floor(n / 16777216) % 256, math.floor(n / 65536) % 256, math.floor(n / 256) % 256, n % 256)
  return header .. body
end

---@class omegad.Decoder
---@field max_frame integer
local Decoder = {}
Decoder.__index = Decoder

--- A stream decoder: feed it whatever the socket delivers (any split, several frames at once).
function M.decoder(max_frame)
  return setmetatable({
    max_frame = max_frame or M.MAX_FRAME,
    buf = "", -- the chunk being consumed
    pos = 1, -- next unread byte of buf
    more = {}, -- chunks received after buf
    size = 0, -- unread bytes in buf and more
    need = nil, -- body length of the frame whose header was read
  }, Decoder)
end

-- Removes and returns the next n bytes; the caller made sure `size >= n`. Chunks are joined
-- only when a frame spans them, so byte-at-a-time input stays linear.
function Decoder:_take(n)
  if #self.buf - self.pos + 1 < n then
    self.buf = self.buf:sub(self.pos) .. table.concat(self.more)
    self.more = {}
    self.pos = 1
  end
  local s = self.buf:sub(self.pos, self.pos + n - 1)
  self.pos = self.pos + n
  self.size = self.size - n
  return s
end

--- Feeds received bytes. Returns the list of complete messages decoded, and an error
--- `{code, message}` when the stream is broken (an oversized length or a body that is not
--- one msgpack map): the connection must then be dropped, as the stream cannot resync.
function Decoder:feed(data)
  if self.pos > #self.buf and #self.more == 0 then
    self.buf, self.pos = data, 1
  else
    self.more[#self.more + 1] = data
  end
  self.size = self.size + #data
  local out = {}
  while true do
    if self.need == nil then
      if self.size < 4 then
        break
      end
      local b1, b2, b3, b4 = self:_take(4):byte(1, 4)
      local n = ((b1 * 256 + b2) * 256 + b3) * 256 + b4
      if n > self.max_frame then
        return out, err("too_large", ("daemon sent a frame of %d bytes (limit %d)"):format(n, self.max_frame))
      end
      self.need = n
    end
    if self.size < self.need then
      break
    end
    local body = self:_take(self.need)
    self.need = nil
    local ok, message = pcall(vim.mpack.decode, body)
    if not ok then
      return out, err("protocol", "daemon sent a frame that is not valid msgpack: " .. tostring(message))
    end
    if type(message) ~= "table" or message == vim.NIL or vim.islist(message) and next(message) ~= nil then
      return out, err("protocol", "daemon sent a frame that is not a map")
    end
    out[#out + 1] = message
  end
  return out
end

--- Unread bytes held (a partial frame).
function Decoder:pending()
  return self.size
end

--- True for msgpack nil as decoded (`vim.NIL`) and for Lua nil.
function M.is_nil(v)
  return v == nil or v == vim.NIL
end

return M
