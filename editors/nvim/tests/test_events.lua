-- Event frames from the real daemon (subscribe, protocol addition).
local client_mod = require("omegad.client")
local omegad = require("omegad")
local H = require("harness")

local DARK = "The user prefers dark mode in every editor"
local LIGHT = "The user switched to light mode in every editor"

return function(env)
  local function new()
    return client_mod.new({ socket = env.daemon.socket, timeout_ms = 30000 })
  end
  return {
    {
      "stored and contradiction events arrive for the subscribed namespace only",
      function()
        local ns = H.namespace()
        local listener, writer = new(), new()
        local events, status = {}, nil
        local sub = listener:subscribe({ "stored", "contradiction" }, ns, function(event, data)
          events[#events + 1] = { event = event, data = data }
        end, function(err, result)
          status = err or result
        end)
        H.wait(function()
          return status
        end, "the subscription")
        H.truthy(status.subscription, "subscribed: " .. vim.inspect(status))
        H.eq(sub.remote, status.subscription, "remote id kept")
        H.call(writer, "store", { text = "elsewhere", namespace = ns .. "-other" })
        local old = H.call(writer, "store", { text = DARK, namespace = ns, type = "preference" }).id
        local new_id = H.call(writer, "store", { text = LIGHT, namespace = ns, type = "preference" }).id
        H.call(writer, "flush")
        H.wait(function()
          return #events >= 3
        end, function()
          return "three events, got " .. vim.inspect(events)
        end)
        local stored = vim.tbl_filter(function(e)
          return e.event == "stored"
        end, events)
        H.eq(vim.tbl_map(function(e)
          return e.data.id
        end, stored), { old, new_id }, "stored events, in commit order, none from the other namespace")
        local edge = vim.tbl_filter(function(e)
          return e.event == "contradiction"
        end, events)[1]
        H.truthy(edge, "a contradiction event")
        H.eq({ edge.data.source, edge.data.target }, { new_id, old }, "edge")
        H.eq(edge.data.new.text, LIGHT, "new text")
        H.eq(edge.data.old.text, DARK, "old text")
        listener:unsubscribe(sub)
        H.call(listener, "ping") -- the unsubscribe went before it
        local before = #events
        H.call(writer, "store", { text = "after unsubscribing", namespace = ns })
        H.call(writer, "flush")
        H.call(listener, "ping")
        H.eq(#events, before, "no events after unsubscribe")
        listener:close()
        writer:close()
      end,
    },
    {
      "notify_contradictions: a notification for a new contradiction in the namespace",
      function()
        local ns = H.namespace()
        local seen = H.stub_notify()
        omegad.setup({ socket = env.daemon.socket, namespace = ns, notify_contradictions = true })
        H.wait(function()
          local w = omegad._watch()
          return w and (w.sub.remote or w.sub.unsupported)
        end, "the subscription")
        H.truthy(omegad._watch().sub.remote, "subscribed, not " .. vim.inspect(omegad._watch().sub.unsupported))
        local writer = new()
        H.call(writer, "store", { text = DARK, namespace = ns })
        H.call(writer, "store", { text = LIGHT, namespace = ns })
        H.call(writer, "flush")
        local n = H.wait_notify(seen, "new contradiction in " .. ns)
        H.contains(n.message, "new: " .. LIGHT)
        H.contains(n.message, "old: " .. DARK)
        H.contains(n.message, ":OmegadContradictions")
        H.eq(n.level, vim.log.levels.WARN, "level")
        vim.cmd("silent checkhealth omegad")
        local report = table.concat(vim.api.nvim_buf_get_lines(0, 0, -1, false), "\n")
        H.contains(report, "OK contradiction notifications: subscribed for " .. ns)
        writer:close()
      end,
    },
    {
      "notify_contradictions follows :cd to the new project's namespace",
      function()
        local a, b = H.namespace(), H.namespace()
        H.project(a)
        local seen = H.stub_notify()
        omegad.setup({ socket = env.daemon.socket, notify_contradictions = true })
        local first = omegad._watch()
        H.eq(first.namespace, a, "first namespace")
        H.wait(function()
          return first.sub.remote
        end, "the first subscription")
        H.project(b)
        local second = omegad._watch()
        H.eq(second.namespace, b, "namespace after :cd")
        H.truthy(first.sub.active == false, "the first subscription ended")
        H.wait(function()
          return second.sub.remote
        end, "the second subscription")
        local writer = new()
        H.call(writer, "store", { text = DARK, namespace = a })
        H.call(writer, "store", { text = LIGHT, namespace = a })
        H.call(writer, "store", { text = DARK, namespace = b })
        H.call(writer, "store", { text = LIGHT, namespace = b })
        H.call(writer, "flush")
        H.wait_notify(seen, "new contradiction in " .. b)
        H.call(omegad.client(), "ping") -- anything for the old namespace would have come by now
        for _, n in ipairs(seen) do
          H.truthy(not n.message:find("contradiction in " .. a, 1, true), "nothing for the old namespace")
        end
        writer:close()
      end,
    },
  }
end
