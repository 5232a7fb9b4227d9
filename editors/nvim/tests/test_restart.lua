-- The daemon restarts under the plugin: the next call reconnects, subscriptions come back.
local client_mod = require("omegad.client")
local omegad = require("omegad")
local H = require("harness")

return function(env)
  return {
    {
      "after a daemon restart the next call reconnects; while it is down calls say not_running",
      function()
        local ns = H.namespace()
        omegad.setup({ socket = env.daemon.socket, namespace = ns })
        local c = omegad.client()
        local id = H.call(c, "store", { text = "kept across restarts", namespace = ns }).id
        local code = env.daemon:stop()
        H.eq(code, 0, "daemon exit code")
        H.wait(function()
          return c.state == "idle"
        end, "the client to see the connection close")
        local err = H.call_err(c, "ping")
        H.eq(err.code, "not_running", "while down")
        env.daemon:start()
        H.eq(H.call(c, "get", { id = id }).text, "kept across restarts", "reconnected, data kept")
        local seen = H.stub_notify()
        vim.cmd("OmegadStatus")
        H.wait_notify(seen, "status: ok")
      end,
    },
    {
      "a subscription comes back by itself after a restart (protocol addition)",
      function()
        local ns = H.namespace()
        local listener = client_mod.new({ socket = env.daemon.socket })
        local events = {}
        local sub = listener:subscribe({ "stored" }, ns, function(_, data)
          events[#events + 1] = data.text
        end)
        H.wait(function()
          return sub.remote or sub.unsupported
        end, "the subscription")
        H.truthy(sub.remote, "subscribed, not " .. vim.inspect(sub.unsupported))
        local max = client_mod.RECONNECT_MAX_MS
        client_mod.RECONNECT_MAX_MS = 1000 -- retry often: the test need not wait for back-off
        local ok, err = pcall(function()
          env.daemon:restart()
          H.wait(function()
            return sub.remote ~= nil
          end, "the subscription to be renewed", 30000)
        end)
        client_mod.RECONNECT_MAX_MS = max
        assert(ok, err)
        local writer = client_mod.new({ socket = env.daemon.socket })
        H.call(writer, "store", { text = "after the restart", namespace = ns })
        H.wait(function()
          return #events == 1
        end, "the event")
        H.eq(events, { "after the restart" }, "events")
        listener:close()
        writer:close()
      end,
    },
  }
end
