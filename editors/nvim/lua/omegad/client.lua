--- An omegad connection over `vim.uv`: requests matched to replies by id (several in flight),
--- per-request timeouts, event frames routed to subscriptions, and a reconnect on the next call
--- after the connection is lost (docs/protocol.md).
---
--- The luv callbacks here only touch this object's own state; every callback into the caller
--- goes through `vim.schedule`, so callers may use the editor API freely.
---
--- Errors passed to callbacks are tables `{code, message, data?}`: the daemon's error codes,
--- plus the client's own `not_running`, `connection_lost`, `timeout` (no reply in time),
--- `protocol` (the daemon sent something unreadable) and `closed` (after `close()`).
local codec = require("omegad.codec")

local uv = vim.uv or vim.loop

local M = {}

M.PROTOCOL_VERSION = 1
--- Milliseconds a request may take before its callback gets a `timeout` error.
M.DEFAULT_TIMEOUT_MS = 10000
--- Reconnect delays while a subscription waits for the daemon to come back.
M.RECONNECT_MIN_MS = 500
M.RECONNECT_MAX_MS = 30000

---@class omegad.Client
local Client = {}
Client.__index = Client

---@param opts {socket: string|fun():string, timeout_ms?: integer, max_frame?: integer, on_event?: fun(event: string, data: any, frame: table)}
function M.new(opts)
  local self = setmetatable({
    socket = opts.socket,
    timeout_ms = opts.timeout_ms or M.DEFAULT_TIMEOUT_MS,
    max_frame = opts.max_frame or codec.MAX_FRAME,
    on_event = opts.on_event, -- events of no subscription of ours
    state = "idle", -- idle (not connected) | connecting | connected | closed
    socket_path = nil, -- the path of the current or last connection attempt
    last_error = nil,
    pending = {}, -- id -> {method, cb, raw, timer, sent}
    queue = {}, -- ids waiting for the connection, in order
    frames = {}, -- id -> frame, for queued ids
    next_id = 1,
    subs = {}, -- subscription handle -> true
    remote = {}, -- daemon subscription id -> handle, on this connection
    pipe = nil,
    decoder = nil,
    generation = 0, -- bumped per connection, so callbacks of a dropped one do nothing
    retry_timer = nil,
    retry_ms = M.RECONNECT_MIN_MS,
  }, Client)
  return self
end

local function schedule(cb, ...)
  if cb then
    local args = { n = select("#", ...), ... }
    vim.schedule(function()
      cb(unpack(args, 1, args.n))
    end)
  end
end

local function stop_timer(timer)
  if timer and not timer:is_closing() then
    timer:stop()
    timer:close()
  end
end

local function close_handle(handle)
  if handle and not handle:is_closing() then
    pcall(handle.read_stop, handle)
    handle:close()
  end
end

function Client:_resolve_socket()
  if type(self.socket) == "function" then
    return self.socket()
  end
  return self.socket
end

-- Completes request `id` (once): removes it, stops its timer, calls back.
function Client:_finish(id, err, result)
  local p = self.pending[id]
  if not p then
    return nil
  end
  self.pending[id] = nil
  self.frames[id] = nil
  stop_timer(p.timer)
  if p.raw then
    p.cb(err, result)
  else
    schedule(p.cb, err, result)
  end
  return p
end

-- Fails every request in flight or queued.
function Client:_fail_all(err)
  local ids = vim.tbl_keys(self.pending)
  table.sort(ids)
  self.queue = {}
  for _, id in ipairs(ids) do
    self:_finish(id, err)
  end
end

function Client:_drop()
  self.generation = self.generation + 1
  close_handle(self.pipe)
  self.pipe = nil
  self.decoder = nil
  self.remote = {}
  for sub in pairs(self.subs) do
    sub.remote = nil
  end
end

-- The connection is gone: fail what waited on it; the next call connects again.
function Client:_lost(code, message)
  self:_drop()
  if self.state ~= "closed" then
    self.state = "idle"
  end
  self.last_error = { code = code, message = message }
  self:_fail_all(self.last_error)
  self:_arm_retry()
end

-- While subscriptions exist, nothing else would reconnect: try on a timer, backing off.
function Client:_arm_retry()
  if self.state ~= "idle" or next(self.subs) == nil or self.retry_timer then
    return
  end
  local wanted = false
  for sub in pairs(self.subs) do
    wanted = wanted or not sub.unsupported
  end
  if not wanted then
    return
  end
  self.retry_timer = uv.new_timer()
  self.retry_timer:start(self.retry_ms, 0, function()
    stop_timer(self.retry_timer)
    self.retry_timer = nil
    self.retry_ms = math.min(self.retry_ms * 2, M.RECONNECT_MAX_MS)
    vim.schedule(function() -- resolving the socket path may use the editor (`~user`)
      if self.state == "idle" then
        self:_connect()
      end
    end)
  end)
end

function Client:_write(id, frame)
  local p = self.pending[id]
  if not p then
    return
  end
  p.sent = true
  local gen = self.generation
  local ok, req, werr = pcall(self.pipe.write, self.pipe, frame, function(err)
    if err and gen == self.generation then
      self:_lost("connection_lost", "write to the daemon failed: " .. tostring(err))
    end
  end)
  if (not ok or not req) and gen == self.generation then
    self:_lost("connection_lost", "write to the daemon failed: " .. tostring(ok and werr or req))
  end
end

function Client:_connect()
  self:_drop()
  self.state = "connecting"
  local path = self:_resolve_socket()
  self.socket_path = path
  local gen = self.generation
  local pipe = uv.new_pipe(false)
  self.pipe = pipe
  local function failed(reason)
    if gen ~= self.generation then
      return
    end
    self:_lost(
      "not_running",
      ("omegad daemon not running at %s (%s); start it with `omegad serve`"):format(path, tostring(reason))
    )
  end
  local ok, req, cerr = pcall(pipe.connect, pipe, path, function(err)
    if gen ~= self.generation then
      return
    end
    if err then
      return failed(err)
    end
    self.state = "connected"
    self.last_error = nil
    self.retry_ms = M.RECONNECT_MIN_MS
    self.decoder = codec.decoder(self.max_frame)
    pipe:read_start(function(rerr, data)
      if gen ~= self.generation then
        return
      end
      if rerr then
        return self:_lost("connection_lost", "reading from the daemon failed: " .. tostring(rerr))
      end
      if data == nil then
        return self:_lost("connection_lost", "the daemon closed the connection")
      end
      local messages, derr = self.decoder:feed(data)
      for _, message in ipairs(messages) do
        self:_dispatch(message)
        if gen ~= self.generation then
          return
        end
      end
      if derr then
        self:_lost(derr.code, derr.message)
      end
    end)
    for sub in pairs(self.subs) do
      if not sub.unsupported then
        self:_subscribe(sub)
      end
    end
    local queue = self.queue
    self.queue = {}
    for _, id in ipairs(queue) do
      local frame = self.frames[id]
      self.frames[id] = nil
      if frame and gen == self.generation then
        self:_write(id, frame)
      end
    end
  end)
  if not ok or not req then
    failed(ok and cerr or req)
  end
end

local function error_of(reply)
  local e = reply.error
  if type(e) ~= "table" or e == vim.NIL then
    return { code = "protocol", message = "the daemon sent an error reply without an error" }
  end
  local data = e.data
  if data == vim.NIL then
    data = nil
  end
  return { code = tostring(e.code), message = tostring(e.message), data = data }
end

function Client:_dispatch(message)
  local id = message.id
  if codec.is_nil(id) then
    if not codec.is_nil(message.event) then
      local sub = self.remote[message.subscription]
      local data = message.data
      if data == vim.NIL then
        data = nil
      end
      if sub then
        schedule(sub.handler, message.event, data, message)
      else
        schedule(self.on_event, message.event, data, message)
      end
    elseif message.ok == false then
      -- The daemon could not tell which request this answers (it could not read one): our
      -- frames are checked before they leave, so the stream is suspect. Start afresh.
      local err = error_of(message)
      self:_lost(err.code, err.message)
    end
    return
  end
  if message.ok == true then
    self:_finish(id, nil, message.result)
  else
    self:_finish(id, error_of(message))
  end
end

--- Sends one request; `cb(err, result)` is called once, through `vim.schedule`.
--- `opts.timeout_ms` overrides the client's timeout. Returns the request id, or nil when the
--- request could not even be encoded (cb then gets the error).
---@param method string
---@param params table|nil
---@param cb fun(err: table|nil, result: any)|nil
---@param opts {timeout_ms?: integer, raw?: boolean}|nil
function Client:request(method, params, cb, opts)
  opts = opts or {}
  local call_back = opts.raw and cb or function(...)
    schedule(cb, ...)
  end
  if self.state == "closed" then
    call_back({ code = "closed", message = "this omegad client was closed" })
    return nil
  end
  if params == nil or (next(params) == nil and getmetatable(params) == nil) then
    params = vim.empty_dict()
  end
  local id = self.next_id
  self.next_id = id + 1
  local frame, err = codec.encode({ v = M.PROTOCOL_VERSION, id = id, method = method, params = params }, self.max_frame)
  if not frame then
    call_back(err)
    return nil
  end
  local timer = uv.new_timer()
  self.pending[id] = { method = method, cb = cb or function() end, raw = opts.raw, timer = timer, sent = false }
  local timeout_ms = opts.timeout_ms or self.timeout_ms
  timer:start(timeout_ms, 0, function()
    local p = self.pending[id]
    if not p then
      return
    end
    for i, queued in ipairs(self.queue) do
      if queued == id then
        table.remove(self.queue, i)
        break
      end
    end
    self:_finish(id, { code = "timeout", message = ("no reply to %s within %d ms"):format(method, timeout_ms) })
    if p.sent and self.state == "connected" and method ~= "cancel" then
      -- The daemon may still be working on it: ask it to stop (its reply is ignored).
      self:request("cancel", { request_id = id }, nil, { timeout_ms = timeout_ms })
    end
  end)
  if self.state == "connected" then
    self:_write(id, frame)
  else
    self.queue[#self.queue + 1] = id
    self.frames[id] = frame
    if self.state == "idle" then
      self:_connect()
    end
  end
  return id
end

--- Requests in flight or queued.
function Client:inflight()
  return vim.tbl_count(self.pending)
end

function Client:_subscribe(sub)
  local gen = self.generation
  self:request("subscribe", { topics = sub.topics, namespace = sub.namespace }, function(err, result)
    if err then
      if err.code == "unknown_method" or err.code == "invalid_params" or err.code == "forbidden" then
        sub.unsupported = err -- retrying cannot help
      end
    elseif not sub.active or gen ~= self.generation then
      if sub.active == false and gen == self.generation then
        self:request("unsubscribe", { subscription = result.subscription })
      end
      return
    else
      sub.remote = result.subscription
      self.remote[result.subscription] = sub
    end
    schedule(sub.on_status, err, result)
  end, { raw = true })
end

--- Starts pushing events of `topics` (for `namespace`, or every readable one when nil) to
--- `handler(event, data, frame)`. The subscription is renewed whenever the connection is
--- re-established; while the daemon is away the client retries in the background.
--- `on_status(err, result)` hears how each attempt went. Returns a handle for `unsubscribe`.
function Client:subscribe(topics, namespace, handler, on_status)
  local sub = { topics = topics, namespace = namespace, handler = handler, on_status = on_status, active = true }
  self.subs[sub] = true
  if self.state == "connected" then
    self:_subscribe(sub)
  elseif self.state == "idle" then
    self:_connect()
  end -- connecting: subscribed once connected
  return sub
end

function Client:unsubscribe(sub)
  sub.active = false
  self.subs[sub] = nil
  if sub.remote and self.state == "connected" then
    self.remote[sub.remote] = nil
    self:request("unsubscribe", { subscription = sub.remote })
  end
  sub.remote = nil
end

--- Ends the client for good: pending calls fail with `closed`, later ones too.
function Client:close()
  if self.state == "closed" then
    return
  end
  self.state = "closed"
  stop_timer(self.retry_timer)
  self.retry_timer = nil
  self.subs = {}
  self:_drop()
  self:_fail_all({ code = "closed", message = "this omegad client was closed" })
end

return M
