--- Test helpers: a real omegad daemon in a subprocess, a fake daemon that misbehaves on
--- purpose, synchronous wrappers over the async client (tests may wait; the plugin never does).
local codec = require("omegad.codec")
local client_mod = require("omegad.client")

local uv = vim.uv or vim.loop

local H = {}

H.DEFAULT_WAIT_MS = 20000

--- Waits until `cond()` is truthy, running the event loop; raises "timed out waiting for what".
function H.wait(cond, what, ms)
  local ok = vim.wait(ms or H.DEFAULT_WAIT_MS, cond, 5)
  if not ok then
    if type(what) == "function" then
      what = what()
    end
    error("timed out waiting for " .. (what or "a condition"), 2)
  end
end

local function format_err(err)
  return ("%s: %s"):format(tostring(err.code), tostring(err.message))
end
H.format_err = format_err

--- Calls `method` and waits; returns the result, raises on an error reply.
function H.call(client, method, params, ms)
  local done, err, result
  client:request(method, params, function(e, r)
    done, err, result = true, e, r
  end)
  H.wait(function()
    return done
  end, "the reply to " .. method, ms)
  if err then
    error(("%s failed: %s"):format(method, format_err(err)), 2)
  end
  return result
end

--- Calls `method` and waits; returns the error (raises when it succeeded).
function H.call_err(client, method, params, ms)
  local done, err
  client:request(method, params, function(e)
    done, err = true, e
  end)
  H.wait(function()
    return done
  end, "the reply to " .. method, ms)
  if not err then
    error(method .. " succeeded; an error was expected", 2)
  end
  return err
end

function H.eq(actual, expected, what)
  if not vim.deep_equal(actual, expected) then
    error(("%s: expected %s, got %s"):format(what or "value", vim.inspect(expected), vim.inspect(actual)), 2)
  end
end

function H.truthy(value, what)
  if not value then
    error((what or "condition") .. " is false", 2)
  end
  return value
end

function H.contains(haystack, needle, what)
  if type(haystack) ~= "string" or not haystack:find(needle, 1, true) then
    error(("%s: %s does not contain %s"):format(what or "text", vim.inspect(haystack), vim.inspect(needle)), 2)
  end
end

local counter = 0
--- A fresh namespace per test, so tests sharing a daemon never see each other's data.
function H.namespace()
  counter = counter + 1
  return ("t-%x-%d"):format(uv.hrtime() % 0x7fffffff, counter)
end

local tmpdirs = {}

--- A short temporary directory (Unix socket paths are limited to ~100 bytes), removed by
--- `H.remove_tmpdirs` at the end of the run.
function H.tmpdir(prefix)
  local dir = assert(uv.fs_mkdtemp("/tmp/" .. (prefix or "odnv") .. "-XXXXXX"))
  tmpdirs[#tmpdirs + 1] = dir
  return dir
end

function H.remove_tmpdirs()
  for _, dir in ipairs(tmpdirs) do
    vim.fn.delete(dir, "rf")
  end
  tmpdirs = {}
end

function H.write_file(path, lines)
  vim.fn.mkdir(vim.fs.dirname(path), "p")
  vim.fn.writefile(lines, path)
end

-- The real daemon ------------------------------------------------------------------------------

--- The Python with omegad installed: `$OMEGAD_PYTHON` (default `python3`), made absolute, as
--- the daemon runs in its own directory.
function H.python()
  local python = os.getenv("OMEGAD_PYTHON") or "python3"
  if python:find("/", 1, true) then
    return vim.fn.fnamemodify(python, ":p")
  end
  local found = vim.fn.exepath(python)
  return found ~= "" and found or python
end

local Daemon = {}
Daemon.__index = Daemon

--- `$OMEGAD_PYTHON -m omegad serve` on its own socket and data dir.
function H.daemon()
  local base = H.tmpdir("odnv")
  return setmetatable({
    base = base,
    socket = base .. "/d.sock",
    data_dir = base .. "/data",
    python = H.python(),
    log = {},
    proc = nil,
  }, Daemon)
end

function Daemon:start(timeout_ms)
  local function collect(_, data)
    if data then
      self.log[#self.log + 1] = data
    end
  end
  local ok, proc = pcall(vim.system, {
    self.python, "-m", "omegad", "serve", "--socket", self.socket, "--data-dir", self.data_dir,
  }, {
    cwd = self.base,
    env = {
      OMEGAD_LOG_FORMAT = "json",
      -- As CI sees it: no reranker, whatever a developer has cached.
      OMEGAD_RERANKER_MODEL_DIR = self.base .. "/no-reranker-model",
    },
    stdout = collect,
    stderr = collect,
  })
  if not ok then
    error(("cannot start %s -m omegad: %s (set OMEGAD_PYTHON to a Python with omegad installed)"):format(self.python, proc))
  end
  self.proc = proc
  local probe = client_mod.new({ socket = self.socket, timeout_ms = 5000 })
  local ready, exited = false, false
  local deadline = uv.now() + (timeout_ms or 90000)
  while not ready and uv.now() < deadline do
    local done
    probe:request("ping", nil, function(err)
      done, ready = true, err == nil
    end)
    vim.wait(6000, function()
      return done
    end, 5)
    if not ready then
      exited = vim.wait(100, function()
        return self.proc:is_closing()
      end, 10)
      if exited then
        break
      end
    end
  end
  probe:close()
  if not ready then
    error(("daemon %s:\n%s"):format(exited and "exited" or "not ready", self:output()))
  end
  return self
end

function Daemon:output()
  return table.concat(self.log)
end

--- SIGTERM and wait; returns the exit code.
function Daemon:stop(timeout_ms)
  if not self.proc then
    return nil
  end
  local proc = self.proc
  self.proc = nil
  proc:kill("sigterm")
  local result = proc:wait(timeout_ms or 60000)
  return result.code, result.signal
end

function Daemon:restart()
  local code = self:stop()
  if code ~= 0 then
    error(("daemon exited with %s on SIGTERM:\n%s"):format(tostring(code), self:output()))
  end
  return self:start()
end

function Daemon:cleanup()
  if self.proc then
    pcall(function()
      self.proc:kill("sigkill")
      self.proc:wait(10000)
    end)
    self.proc = nil
  end
  vim.fn.delete(self.base, "rf")
end

-- A fake daemon -------------------------------------------------------------------------------

local Fake = {}
Fake.__index = Fake

--- A Unix socket server speaking the framing, whose answers are `handler(conn, request)`
--- (called in a luv callback: no editor API there). `conn:send(message)` sends one frame;
--- `conn:write(bytes)` raw bytes; `conn:close()`. `fake.requests` records every request.
function H.fake(handler)
  local base = H.tmpdir("odfk")
  local self = setmetatable({ base = base, socket = base .. "/f.sock", requests = {}, connections = 0, conns = {} }, Fake)
  local server = uv.new_pipe(false)
  assert(server:bind(self.socket))
  self.server = server
  server:listen(16, function(err)
    assert(not err, err)
    local pipe = uv.new_pipe(false)
    server:accept(pipe)
    self.connections = self.connections + 1
    local conn = { pipe = pipe, number = self.connections, fake = self }
    self.conns[#self.conns + 1] = conn
    function conn:write(bytes)
      if not pipe:is_closing() then
        pipe:write(bytes)
      end
    end
    function conn:send(message)
      self:write(assert(codec.encode(message)))
    end
    function conn:close()
      if not pipe:is_closing() then
        pipe:read_stop()
        pipe:close()
      end
    end
    local decoder = codec.decoder()
    pipe:read_start(function(rerr, data)
      if rerr or data == nil then
        return conn:close()
      end
      for _, message in ipairs((decoder:feed(data))) do
        message.conn = conn.number
        self.requests[#self.requests + 1] = message
        handler(conn, message)
      end
    end)
  end)
  return self
end

--- A frame as bytes (for writing several frames in one write, or split).
function H.frame(message)
  return assert(codec.encode(message))
end

function Fake:requests_of(method)
  return vim.tbl_filter(function(r)
    return r.method == method
  end, self.requests)
end

--- Closes every accepted connection (the server keeps listening).
function Fake:drop_connections()
  for _, conn in ipairs(self.conns) do
    conn:close()
  end
end

function Fake:close()
  self:drop_connections()
  if not self.server:is_closing() then
    self.server:close()
  end
  vim.fn.delete(self.base, "rf")
end

function H.ok(id, result)
  return { id = id, ok = true, result = result == nil and vim.empty_dict() or result }
end

-- Editor stubs (the runner restores vim.ui and vim.notify after each test) ----------------------

--- Replaces vim.ui.select: `pick(items, opts, formatted)` returns the choice (nil: cancel).
--- Every call is recorded in the returned list, with the items as format_item shows them.
function H.stub_select(pick)
  local calls = {}
  vim.ui.select = function(items, opts, on_choice)
    local formatted = {}
    for i, item in ipairs(items) do
      formatted[i] = opts.format_item and opts.format_item(item) or tostring(item)
    end
    calls[#calls + 1] = { items = items, opts = opts, formatted = formatted }
    local choice = pick(items, opts, formatted)
    local index
    for i, item in ipairs(items) do
      if item == choice then
        index = i
      end
    end
    vim.schedule(function() -- as pickers do: the choice comes later
      on_choice(choice, index)
    end)
  end
  return calls
end

--- Replaces vim.notify; returns the list of {message, level} it receives.
function H.stub_notify()
  local seen = {}
  vim.notify = function(message, level)
    seen[#seen + 1] = { message = message, level = level or vim.log.levels.INFO }
  end
  return seen
end

--- Waits for a notification containing `text`; returns it.
function H.wait_notify(seen, text, ms)
  local found
  H.wait(function()
    for _, n in ipairs(seen) do
      if n.message:find(text, 1, true) then
        found = n
        return true
      end
    end
    return false
  end, function()
    return ("a notification with %q (got %s)"):format(text, vim.inspect(vim.tbl_map(function(n)
      return n.message
    end, seen)))
  end, ms)
  return found
end

--- A project on disk: `<tmp>/<name>` with a .git directory and some files; cd into it.
function H.project(name)
  local base = H.tmpdir("odpj")
  local root = base .. "/" .. (name or "proj")
  vim.fn.mkdir(root .. "/.git", "p")
  H.write_file(root .. "/src/app.py", {
    "import os",
    "def main():",
    "    return os.getcwd()",
    "",
    "if __name__ == '__main__':",
    "    main()",
  })
  H.write_file(root .. "/src/other.py", { "a = 1", "b = 2", "c = 3", "d = 4", "e = 5" })
  H.write_file(root .. "/README.md", { "# proj", "", "Some words." })
  vim.cmd.cd(vim.fn.fnameescape(root))
  return root, base
end

return H
