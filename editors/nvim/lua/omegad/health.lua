--- :checkhealth omegad — socket, daemon, protocol version, problems.
---
--- A health check is synchronous by nature: this is the one place that waits for the daemon
--- (with `vim.wait`, at most a few seconds).
local M = {}

local uv = vim.uv or vim.loop

--- Milliseconds the check waits for the daemon's `hello`.
M.TIMEOUT_MS = 5000

local START_ADVICE = {
  "start the daemon: `omegad service install` (once; it then starts on demand) or `omegad serve`",
  "`omegad doctor` says what is wrong and how to fix it",
  "a daemon on another socket: point require('omegad').setup{ socket = ... } or $OMEGAD_SOCKET at it",
}

local function hello(path)
  local client = require("omegad.client").new({ socket = path, timeout_ms = M.TIMEOUT_MS })
  local reply
  client:request("hello", nil, function(err, result)
    reply = { err = err, result = result }
  end)
  vim.wait(M.TIMEOUT_MS + 1000, function()
    return reply ~= nil
  end, 10)
  client:close()
  return reply or { err = { code = "timeout", message = "no answer" } }
end

function M.check()
  local health = vim.health
  local omegad = require("omegad")
  local PROTOCOL = require("omegad.client").PROTOCOL_VERSION

  health.start("omegad")
  local v = vim.version()
  if vim.fn.has("nvim-0.10") == 1 then
    health.ok(("Neovim %d.%d.%d"):format(v.major, v.minor, v.patch))
  else
    health.error(("Neovim %d.%d.%d: omegad needs 0.10 or later"):format(v.major, v.minor, v.patch))
    return
  end

  local path, source = omegad.socket_path()
  local stat = uv.fs_stat(path)
  if not stat then
    health.error(("no socket at %s (from %s)"):format(path, source), START_ADVICE)
    return
  elseif stat.type ~= "socket" then
    health.error(("%s (from %s) is a %s, not a socket"):format(path, source, stat.type), START_ADVICE)
    return
  end
  health.ok(("socket found: %s (from %s)"):format(path, source))

  local reply = hello(path)
  if reply.err then
    health.error(("the daemon does not answer: %s (%s)"):format(reply.err.message, reply.err.code), START_ADVICE)
    return
  end
  local h = reply.result
  health.ok(("daemon answers: omegad %s"):format(tostring(h.daemon_version)))
  if h.protocol == PROTOCOL then
    health.ok(("protocol version %d"):format(PROTOCOL))
  else
    health.error(
      ("protocol version %s; this plugin speaks %d"):format(tostring(h.protocol), PROTOCOL),
      { "update the plugin or the daemon so both speak the same version" }
    )
  end

  local problems = type(h.problems) == "table" and h.problems or {}
  if h.status == "ok" and #problems == 0 then
    health.ok("status: ok, no problems")
  else
    if h.status ~= "ok" then
      health.error(("status: %s"):format(tostring(h.status)))
    end
    for _, p in ipairs(problems) do
      local text = ("problem %s: %s"):format(tostring(p.code), tostring(p.message))
      local advice = type(p.fix) == "string" and { p.fix } or nil
      if h.status == "degraded" and p.code ~= "model_damaged" then
        health.error(text, advice)
      else
        health.warn(text, advice)
      end
    end
  end

  local r = type(h.reranker) == "table" and h.reranker or {}
  if r.state == "ready" then
    health.ok(("reranker: ready (%s)"):format(tostring(r.model)))
  elseif r.state == "missing" or r.state == "failed" then
    local detail = type(r.fix) == "string" and "" or (" — " .. tostring(r.last_error or r.detail))
    health.warn(
      ("reranker: %s%s (queries still work, in heuristic order)"):format(r.state, detail),
      type(r.fix) == "string" and { r.fix } or { "see docs/reranking.md" }
    )
  else
    health.info(("reranker: %s%s"):format(tostring(r.state), type(r.detail) == "string" and (" — " .. r.detail) or ""))
  end

  local namespace = omegad.namespace()
  if omegad.config.namespace then
    health.info(("namespace: %s (from setup)"):format(namespace))
  else
    health.info(("namespace: %s (from the project root %s)"):format(namespace, omegad.project_root()))
  end

  if omegad.config.notify_contradictions then
    local watch = omegad._watch()
    if watch and watch.sub.remote then
      health.ok("contradiction notifications: subscribed for " .. watch.namespace)
    elseif watch and watch.sub.unsupported then
      health.warn("contradiction notifications: " .. watch.sub.unsupported.message, { "update omegad" })
    else
      health.info("contradiction notifications: not subscribed yet (the daemon was away)")
    end
  end
end

return M
