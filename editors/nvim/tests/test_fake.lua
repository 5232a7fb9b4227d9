-- The client against a fake daemon that misbehaves on purpose: out-of-order and split
-- replies, events between replies, silence, broken frames, dropped connections.
local client_mod = require("omegad.client")
local H = require("harness")

local function with_fake(handler, fn)
  local fake = H.fake(handler)
  local ok, err = pcall(fn, fake)
  fake:close()
  if not ok then
    error(err, 0)
  end
end

return function()
  return {
    {
      "replies in reverse order, written one byte at a time, reach their callbacks",
      function()
        local held = {}
        with_fake(function(conn, req)
          held[#held + 1] = req
          if #held == 5 then
            local bytes = ""
            for i = #held, 1, -1 do
              bytes = bytes .. H.frame(H.ok(held[i].id, { echo = held[i].params.n }))
            end
            for i = 1, #bytes do
              conn:write(bytes:sub(i, i))
            end
          end
        end, function(fake)
          local c = client_mod.new({ socket = fake.socket })
          local got, order = {}, {}
          for n = 1, 5 do
            c:request("echo", { n = n }, function(err, result)
              got[n] = err or result.echo
              order[#order + 1] = n
            end)
          end
          H.eq(c:inflight(), 5, "in flight at once")
          H.wait(function()
            return #order == 5
          end, "five replies")
          H.eq(got, { 1, 2, 3, 4, 5 }, "each reply to its request")
          H.eq(order, { 5, 4, 3, 2, 1 }, "callbacks in arrival order")
          H.eq(fake.connections, 1, "one connection")
          c:close()
        end)
      end,
    },
    {
      "two replies and an event in one write; events without our subscription go to on_event",
      function()
        local held = {}
        with_fake(function(conn, req)
          held[#held + 1] = req
          if #held == 2 then
            conn:write(
              H.frame(H.ok(held[1].id, { n = 1 }))
                .. H.frame({ event = "stored", data = { id = "m1" }, subscription = 42 })
                .. H.frame(H.ok(held[2].id, { n = 2 }))
            )
          end
        end, function(fake)
          local events = {}
          local c = client_mod.new({
            socket = fake.socket,
            on_event = function(event, data, frame)
              events[#events + 1] = { event, data.id, frame.subscription }
            end,
          })
          local got = {}
          c:request("a", nil, function(_, r)
            got[#got + 1] = r.n
          end)
          c:request("b", nil, function(_, r)
            got[#got + 1] = r.n
          end)
          H.wait(function()
            return #got == 2 and #events == 1
          end, "replies and the event")
          H.eq(got, { 1, 2 }, "replies")
          H.eq(events, { { "stored", "m1", 42 } }, "event")
          c:close()
        end)
      end,
    },
    {
      "a subscription gets its events (dropped counts included); unknown events are passed on",
      function()
        with_fake(function(conn, req)
          if req.method == "subscribe" then
            H.eq(req.params.topics, { "contradiction" }, "topics sent")
            H.eq(req.params.namespace, "ns1", "namespace sent")
            conn:write(
              H.frame(H.ok(req.id, { subscription = 7, topics = req.params.topics, namespace = "ns1" }))
                .. H.frame({ event = "contradiction", data = { id = "e1" }, subscription = 7 })
                .. H.frame({ event = "future-thing", data = vim.empty_dict(), subscription = 7, dropped = 3 })
            )
          end
        end, function(fake)
          local c = client_mod.new({ socket = fake.socket })
          local events, status = {}, nil
          local sub = c:subscribe({ "contradiction" }, "ns1", function(event, data, frame)
            events[#events + 1] = { event, data.id, frame.dropped }
          end, function(err, result)
            status = err or result
          end)
          H.wait(function()
            return #events == 2 and status
          end, "events")
          H.eq(status.subscription, 7, "subscribe result")
          H.eq(sub.remote, 7, "remote id")
          H.eq(events[1], { "contradiction", "e1", nil }, "first event")
          H.eq(events[2], { "future-thing", nil, 3 }, "unknown event, with dropped")
          c:unsubscribe(sub)
          H.wait(function()
            return #fake:requests_of("unsubscribe") == 1
          end, "unsubscribe sent")
          H.eq(fake:requests_of("unsubscribe")[1].params.subscription, 7, "unsubscribe id")
          c:close()
        end)
      end,
    },
    {
      "no reply: a timeout error, a cancel to the daemon, and a late reply is ignored",
      function()
        local slow
        with_fake(function(conn, req)
          if req.method == "slow" then
            slow = { conn = conn, id = req.id }
          elseif req.method == "cancel" then
            conn:send(H.ok(req.id, { cancelled = true }))
          elseif req.method == "ping" then
            conn:send(H.ok(req.id))
          end
        end, function(fake)
          local c = client_mod.new({ socket = fake.socket, timeout_ms = 5000 })
          local calls, err = 0, nil
          local t0 = vim.uv.now()
          c:request("slow", nil, function(e)
            calls, err = calls + 1, e
          end, { timeout_ms = 150 })
          H.wait(function()
            return err
          end, "the timeout")
          local took = vim.uv.now() - t0
          H.eq(err.code, "timeout", "code")
          H.truthy(took >= 140 and took < 2000, "timed out after ~150 ms, took " .. took)
          H.wait(function()
            return #fake:requests_of("cancel") == 1
          end, "a cancel request")
          H.eq(fake:requests_of("cancel")[1].params.request_id, slow.id, "cancel names the request")
          slow.conn:send(H.ok(slow.id, { late = true }))
          H.call(c, "ping") -- the late reply came before this one and was dropped
          H.eq(calls, 1, "callback called once")
          H.eq(c:inflight(), 0, "nothing pending")
          c:close()
        end)
      end,
    },
    {
      "an error reply without an id fails what is in flight; the next call reconnects",
      function()
        with_fake(function(conn, req)
          if req.conn == 1 and req.method == "b" then
            conn:send({ id = vim.NIL, ok = false, error = { code = "bad_request", message = "undecodable" } })
          elseif req.conn > 1 then
            conn:send(H.ok(req.id))
          end
        end, function(fake)
          local c = client_mod.new({ socket = fake.socket })
          local errs = {}
          c:request("a", nil, function(e)
            errs[#errs + 1] = e.code
          end)
          c:request("b", nil, function(e)
            errs[#errs + 1] = e.code
          end)
          H.wait(function()
            return #errs == 2
          end, "both fail")
          H.eq(errs, { "bad_request", "bad_request" }, "codes")
          H.eq(c.state, "idle", "dropped")
          H.call(c, "ping")
          H.eq(fake.connections, 2, "a new connection")
          c:close()
        end)
      end,
    },
    {
      "a frame over the cap or not msgpack drops the connection with an error",
      function()
        with_fake(function(conn, req)
          if req.method == "huge" then
            conn:write("\0\16\0\1") -- announces 1 MiB + 1 over a 1 MiB cap
          elseif req.method == "garbage" then
            conn:write("\0\0\0\2\193\193")
          else
            conn:send(H.ok(req.id))
          end
        end, function(fake)
          local c = client_mod.new({ socket = fake.socket, max_frame = 1024 * 1024 })
          H.eq(H.call_err(c, "huge").code, "too_large", "oversized")
          H.eq(c.state, "idle", "dropped after too_large")
          H.eq(H.call_err(c, "garbage").code, "protocol", "garbage")
          H.call(c, "ping")
          H.eq(fake.connections, 3, "connections")
          c:close()
        end)
      end,
    },
    {
      "the connection lost mid-request fails it; the next call reconnects",
      function()
        with_fake(function(conn, req)
          if req.method == "die" then
            conn:close()
          else
            conn:send(H.ok(req.id, { conn = req.conn }))
          end
        end, function(fake)
          local c = client_mod.new({ socket = fake.socket })
          H.eq(H.call(c, "ping").conn, 1, "first connection")
          local err = H.call_err(c, "die")
          H.eq(err.code, "connection_lost", "code")
          H.eq(H.call(c, "ping").conn, 2, "reconnected")
          c:close()
        end)
      end,
    },
    {
      "no daemon: not_running naming the socket; close() refuses reuse",
      function()
        local path = H.tmpdir("odno") .. "/none.sock"
        local c = client_mod.new({ socket = path })
        local err = H.call_err(c, "ping")
        H.eq(err.code, "not_running", "code")
        H.contains(err.message, path)
        H.contains(err.message, "omegad serve")
        H.eq(c.state, "idle", "state")
        c:close()
        H.eq(H.call_err(c, "ping").code, "closed", "after close")
        vim.fn.delete(vim.fs.dirname(path), "rf")
      end,
    },
    {
      "a request that cannot be encoded fails alone, before anything is sent",
      function()
        with_fake(function(conn, req)
          conn:send(H.ok(req.id))
        end, function(fake)
          local c = client_mod.new({ socket = fake.socket })
          local err = H.call_err(c, "store", { text = "bad \255 byte" })
          H.eq(err.code, "invalid_params", "code")
          H.call(c, "ping")
          H.eq(#fake:requests_of("store"), 0, "never sent")
          c:close()
        end)
      end,
    },
    {
      "subscriptions are renewed after the connection drops, with no call needed",
      function()
        local next_sub = 0
        with_fake(function(conn, req)
          if req.method == "subscribe" then
            next_sub = next_sub + 1
            conn:send(H.ok(req.id, { subscription = next_sub, topics = req.params.topics, namespace = vim.NIL }))
            conn:send({ event = "stored", data = { id = "on-" .. req.conn }, subscription = next_sub })
          end
        end, function(fake)
          local c = client_mod.new({ socket = fake.socket })
          local seen = {}
          c:subscribe({ "stored" }, nil, function(_, data)
            seen[#seen + 1] = data.id
          end)
          H.wait(function()
            return #seen == 1
          end, "the first event")
          fake:drop_connections()
          H.wait(function()
            return #seen == 2
          end, "an event on the renewed subscription", 10000)
          H.eq(seen, { "on-1", "on-2" }, "events from both connections")
          H.eq(#fake:requests_of("subscribe"), 2, "subscribed twice")
          c:close()
        end)
      end,
    },
  }
end
