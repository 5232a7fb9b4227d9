-- The client against the real daemon.
local client_mod = require("omegad.client")
local H = require("harness")

return function(env)
  local function new()
    return client_mod.new({ socket = env.daemon.socket, timeout_ms = 30000 })
  end
  return {
    {
      "hello and ping",
      function()
        local c = new()
        local hello = H.call(c, "hello")
        H.eq(hello.protocol, client_mod.PROTOCOL_VERSION, "protocol")
        H.eq(hello.status, "ok", "status")
        H.eq(next(H.call(c, "ping")), nil, "ping result is an empty map")
        H.eq(c.state, "connected", "state")
        c:close()
      end,
    },
    {
      "many requests in flight on one connection, each reply matched to its request",
      function()
        local c = new()
        local ns = H.namespace()
        local stored, n = 0, 20
        for i = 1, n do
          c:request("store", { id = ns .. ":" .. i, text = "memory number " .. i, namespace = ns }, function(err, r)
            assert(not err, err and err.message)
            assert(r.id == ns .. ":" .. i and r.created == true)
            stored = stored + 1
          end)
        end
        H.truthy(c:inflight() == n, "all stores in flight at once")
        H.wait(function()
          return stored == n
        end, "the stores")
        local got, pings = {}, 0
        for i = n, 1, -1 do
          c:request("get", { id = ns .. ":" .. i }, function(err, r)
            got[i] = err and err.code or r.text
          end)
          c:request("ping", nil, function(err)
            pings = pings + (err and 0 or 1)
          end)
        end
        H.eq(c:inflight(), 2 * n, "gets and pings in flight")
        H.wait(function()
          return vim.tbl_count(got) == n and pings == n
        end, "the gets")
        for i = 1, n do
          H.eq(got[i], "memory number " .. i, "get " .. i)
        end
        c:close()
      end,
    },
    {
      "daemon errors keep their code, message and data",
      function()
        local c = new()
        local err = H.call_err(c, "get", { id = "no-such-memory" })
        H.eq(err.code, "not_found", "code")
        H.eq(err.data.id, "no-such-memory", "data")
        H.eq(H.call_err(c, "store", { text = 3 }).code, "invalid_params", "wrong type")
        H.eq(H.call_err(c, "no_such_method").code, "unknown_method", "unknown method")
        H.call(c, "ping") -- the connection survives them
        c:close()
      end,
    },
    {
      "values round-trip: UTF-8 text, nested metadata with null, empty maps, lists, numbers",
      function()
        local c = new()
        local ns = H.namespace()
        local text = "héllo ✓ 日本語 𝄞"
        local meta = { a = vim.NIL, e = vim.empty_dict(), l = { 1, 2, 3 }, f = 0.25, b = false, big = 2 ^ 40, deep = { x = { y = "z" } } }
        local r = H.call(c, "store", { text = text, namespace = ns, metadata = meta, tags = { "ünï", "b" } })
        local m = H.call(c, "get", { id = r.id })
        H.eq(m.text, text, "text")
        H.eq(m.metadata.a, vim.NIL, "null")
        H.eq(next(m.metadata.e), nil, "empty map")
        H.eq(m.metadata.l, { 1, 2, 3 }, "list")
        H.eq({ m.metadata.f, m.metadata.b, m.metadata.big }, { 0.25, false, 2 ^ 40 }, "numbers and bools")
        H.eq(m.metadata.deep.x.y, "z", "nested")
        H.eq(m.tags, { "ünï", "b" }, "tags")
        H.eq(m.namespace, ns, "namespace")
        c:close()
      end,
    },
    {
      "list pages through a namespace with a cursor (protocol addition)",
      function()
        local c = new()
        local ns = H.namespace()
        for i = 1, 7 do
          H.call(c, "store", {
            id = ns .. ":" .. i,
            text = "listed memory " .. i,
            namespace = ns,
            created_at = ("2026-01-01T00:00:0%dZ"):format(i),
          })
        end
        local ids, sizes, cursor = {}, {}, nil
        repeat
          local page = H.call(c, "list", { namespace = ns, limit = 3, cursor = cursor })
          sizes[#sizes + 1] = #page.memories
          for _, m in ipairs(page.memories) do
            ids[#ids + 1] = m.id
          end
          cursor = page.next ~= vim.NIL and page.next or nil
        until cursor == nil or #sizes > 10
        H.eq(sizes, { 3, 3, 1 }, "page sizes")
        local want = {}
        for i = 7, 1, -1 do
          want[#want + 1] = ns .. ":" .. i
        end
        H.eq(ids, want, "newest first, each once")
        c:close()
      end,
    },
    {
      "namespaces lists the namespace with its count (protocol addition)",
      function()
        local c = new()
        local ns = H.namespace()
        H.call(c, "store", { text = "one", namespace = ns })
        H.call(c, "store", { text = "two", namespace = ns })
        local found
        for _, entry in ipairs(H.call(c, "namespaces").namespaces) do
          if entry.name == ns then
            found = entry
          end
        end
        H.truthy(found, ns .. " listed")
        H.eq(found.memories, 2, "memories")
        H.truthy(type(found.last_write) == "string", "last_write is a time")
        c:close()
      end,
    },
    {
      "query takes the editor's context and boosts the memory of this file (protocol addition)",
      function()
        local c = new()
        local ns = H.namespace()
        local text = "Indent this module with four spaces"
        local a = H.call(c, "store", { text = text, namespace = ns, metadata = { file = "src/app.py", language = "python" } }).id
        local b = H.call(c, "store", { text = text, namespace = ns, metadata = { file = "src/other.py", language = "python" } }).id
        H.call(c, "flush")
        for _, case in ipairs({ { "src/app.py", a }, { "/home/x/proj/src/other.py", b } }) do
          local r = H.call(c, "query", {
            text = "indentation",
            namespace = ns,
            explain = true,
            context = { project = "proj", file = case[1], language = "python" },
          })
          H.eq(r.results[1].id, case[2], "first result for " .. case[1])
          H.truthy((tonumber(r.results[1].signals.context) or 1) > 1, "a context factor above 1")
        end
        c:close()
      end,
    },
  }
end
