-- Framing and value rules, with no socket: the decoder gets bytes in every split.
local codec = require("omegad.codec")
local H = require("harness")

local function hex(s)
  return (s:gsub(".", function(c)
    return ("%02x"):format(c:byte())
  end))
end

local function header_length(frame)
  local b1, b2, b3, b4 = frame:byte(1, 4)
  return ((b1 * 256 + b2) * 256 + b3) * 256 + b4
end

return function()
  return {
    {
      "encode: a big-endian length, then one msgpack map",
      function()
        local frame = assert(codec.encode({ v = 1, id = 7, method = "ping", params = vim.empty_dict() }))
        H.eq(header_length(frame), #frame - 4, "length prefix")
        H.eq(frame:byte(5), 0x84, "a map of 4 entries")
        H.truthy(hex(frame):find("a6706172616d7380", 1, true), "params as an empty map (0x80), not an array")
        local big = assert(codec.encode({ text = ("x"):rep(70000) }))
        H.eq(hex(big:sub(1, 4)), ("%08x"):format(#big - 4), "4-byte big-endian length")
      end,
    },
    {
      "encode: text is str, nil is vim.NIL, lists are arrays",
      function()
        local frame = assert(codec.encode({ t = "é✓", n = vim.NIL, l = { 1, 2 } }))
        local body = hex(frame:sub(5))
        H.truthy(body:find("a174a5c3a9e29c93", 1, true), "str (0xa5), not bin (0xc4)")
        H.truthy(body:find("a16ec0", 1, true), "nil as 0xc0")
        H.truthy(body:find("a16c920102", 1, true), "a list as an array")
      end,
    },
    {
      "encode refuses what the wire rules forbid",
      function()
        local cases = {
          { { text = "\255\254" }, "not valid UTF-8" },
          { { text = "a\192\128" }, "not valid UTF-8" }, -- overlong NUL
          { { f = function() end }, "type function" },
          { { x = math.huge }, "not a finite number" },
          { { x = 0 / 0 }, "not a finite number" },
        }
        for _, case in ipairs(cases) do
          local frame, err = codec.encode(case[1])
          H.eq(frame, nil, "frame for " .. vim.inspect(case[1]))
          H.eq(err.code, "invalid_params", "code")
          H.contains(err.message, case[2])
        end
        local frame, err = codec.encode({ text = ("x"):rep(200) }, 100)
        H.eq(frame, nil, "frame over the cap")
        H.eq(err.code, "too_large", "code")
      end,
    },
    {
      "UTF-8 validation",
      function()
        local good = { "", "plain", "é", "✓", "𝄞", "日本語", "\239\187\191bom" }
        local bad = { "\128", "\195", "\195\40", "\224\128\128", "\237\160\128", "\244\144\128\128", "\248\136\128\128\128", "\192\175" }
        for _, s in ipairs(good) do
          H.truthy(codec.valid_utf8(s), vim.inspect(s) .. " is valid")
        end
        for _, s in ipairs(bad) do
          H.truthy(not codec.valid_utf8(s), vim.inspect(s) .. " is invalid")
        end
      end,
    },
    {
      "decoder: three frames fed one byte at a time",
      function()
        local messages = { { id = 1, ok = true, result = { a = 1 } }, { event = "stored", data = { id = "x" } }, { id = 2, ok = false, error = { code = "not_found", message = "no" } } }
        local bytes, ends = "", {}
        for i, m in ipairs(messages) do
          bytes = bytes .. assert(codec.encode(m))
          ends[#bytes] = i
        end
        local d = codec.decoder()
        local got, expected = {}, 0
        for i = 1, #bytes do
          local out, err = d:feed(bytes:sub(i, i))
          H.eq(err, nil, "error at byte " .. i)
          for _, m in ipairs(out) do
            got[#got + 1] = m
          end
          expected = ends[i] or expected
          H.eq(#got, expected, "messages after byte " .. i)
        end
        H.eq(#got, 3, "messages")
        H.eq(got[1].result.a, 1, "first")
        H.eq(got[2].event, "stored", "second")
        H.eq(got[3].error.code, "not_found", "third")
        H.eq(d:pending(), 0, "nothing left over")
      end,
    },
    {
      "decoder: a frame split at every byte",
      function()
        local frame = assert(codec.encode({ id = 3, ok = true, result = { text = "héllo", list = { 1, 2, 3 }, none = vim.NIL } }))
        for cut = 0, #frame do
          local d = codec.decoder()
          local first = d:feed(frame:sub(1, cut))
          local second, err = d:feed(frame:sub(cut + 1))
          H.eq(err, nil, "error at cut " .. cut)
          H.eq(#first + #second, 1, "one message at cut " .. cut)
          local m = first[1] or second[1]
          H.eq(m.result.text, "héllo", "text at cut " .. cut)
          H.eq(m.result.none, vim.NIL, "nil at cut " .. cut)
        end
      end,
    },
    {
      "decoder: two frames and the start of a third in one chunk",
      function()
        local a, b, c = H.frame({ id = 1, ok = true }), H.frame({ id = 2, ok = true }), H.frame({ id = 3, ok = true })
        local d = codec.decoder()
        local out = d:feed(a .. b .. c:sub(1, 5))
        H.eq(#out, 2, "two complete frames")
        H.eq({ out[1].id, out[2].id }, { 1, 2 }, "in order")
        out = d:feed(c:sub(6))
        H.eq(#out, 1, "the third")
        H.eq(out[1].id, 3, "third id")
      end,
    },
    {
      "decoder: an oversized length or a body that is not a map breaks the stream",
      function()
        local out, err = codec.decoder(1024):feed("\0\0\4\1")
        H.eq(#out, 0, "messages")
        H.eq(err.code, "too_large", "oversized")
        local _, err2 = codec.decoder():feed("\0\0\0\1\193")
        H.eq(err2.code, "protocol", "garbage")
        local list = vim.mpack.encode({ 1, 2 })
        local _, err3 = codec.decoder():feed(string.char(0, 0, 0, #list) .. list)
        H.eq(err3.code, "protocol", "an array")
        local ok = codec.decoder():feed(H.frame({ id = 1, ok = true }) .. "\0\0\4\1")
        H.eq(#ok, 1, "frames before a broken header still come out")
      end,
    },
    {
      "decoder: empty maps, nil and nesting come back as sent",
      function()
        local m = { id = 9, ok = true, result = { e = vim.empty_dict(), n = vim.NIL, l = {}, deep = { a = { b = { c = "d" } } } } }
        local out = codec.decoder():feed(H.frame(m))
        H.eq(out[1].result.n, vim.NIL, "nil")
        H.eq(next(out[1].result.e), nil, "empty map")
        H.eq(out[1].result.deep.a.b.c, "d", "nested")
        H.truthy(codec.is_nil(out[1].result.n) and codec.is_nil(nil) and not codec.is_nil(false), "is_nil")
      end,
    },
  }
end
