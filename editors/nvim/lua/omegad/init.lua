--- omegad for Neovim: remember code and decisions, recall them where you work.
---
--- `require("omegad").setup{...}` is optional: the commands work with the defaults. See
--- editors/nvim/README.md for the options and commands.
local paths = require("omegad.paths")

local M = {}

--- Defaults of `setup`.
M.defaults = {
  --- The daemon's socket; nil: `$OMEGAD_SOCKET`, then the XDG locations (as the Python client).
  socket = nil,
  --- The namespace to store in and recall from; nil: the project root's directory name.
  namespace = nil,
  --- Milliseconds before a request gives up.
  timeout_ms = 10000,
  --- Results `:OmegadRecall` asks for (1–100).
  recall_limit = 10,
  --- Notify when the daemon flags a new contradiction in the namespace (needs `subscribe`).
  notify_contradictions = false,
}

M.config = vim.deepcopy(M.defaults)

local client -- the shared connection, made on first use
local watch -- {sub, namespace} of the contradiction subscription

--- The socket path in use and where it came from.
function M.socket_path()
  return paths.socket(M.config.socket)
end

--- The shared client (connects lazily on its first request).
function M.client()
  if client == nil or client.state == "closed" then
    client = require("omegad.client").new({
      socket = function()
        return (M.socket_path())
      end,
      timeout_ms = M.config.timeout_ms,
    })
  end
  return client
end

--- The project root (git top-level of the current directory, else the directory itself).
function M.project_root()
  return paths.project_root()
end

--- The namespace in use: the `namespace` option, else the project root's name, sanitized.
function M.namespace()
  if M.config.namespace then
    return M.config.namespace
  end
  return paths.default_namespace()
end

--- `vim.notify` with the plugin's prefix.
function M.notify(message, level)
  vim.notify("omegad: " .. message, level or vim.log.levels.INFO, { title = "omegad" })
end

local function first_line(text, width)
  local line = tostring(text):match("^%s*([^\n]*)") or ""
  if #line > width then
    line = line:sub(1, width - 1) .. "…"
  end
  return line
end
M._first_line = first_line

local function on_contradiction(event, data)
  if event ~= "contradiction" or type(data) ~= "table" then
    return -- events we do not know are ignored (docs/protocol.md, "Events")
  end
  local new = type(data.new) == "table" and data.new.text or "?"
  local old = type(data.old) == "table" and data.old.text or "?"
  M.notify(
    ("new contradiction in %s:\n  new: %s\n  old: %s\n:OmegadContradictions to resolve it"):format(
      tostring(data.namespace or M.namespace()),
      first_line(new, 100),
      first_line(old, 100)
    ),
    vim.log.levels.WARN
  )
end

local function unwatch()
  if watch then
    if client then
      client:unsubscribe(watch.sub)
    end
    watch = nil
  end
end

-- Subscribes to contradictions of the current namespace (again after :cd changes it).
local function rewatch()
  if not M.config.notify_contradictions then
    return unwatch()
  end
  local namespace = M.namespace()
  if watch and watch.namespace == namespace then
    return
  end
  unwatch()
  local warned = false
  watch = {
    namespace = namespace,
    sub = M.client():subscribe({ "contradiction" }, namespace, on_contradiction, function(err)
      if err and not warned and (err.code == "unknown_method" or err.code == "forbidden") then
        warned = true
        M.notify("no contradiction notifications: " .. err.message, vim.log.levels.WARN)
      end
    end),
  }
end

--- Configures the plugin; every option is optional (see `M.defaults`).
---@param opts table|nil
function M.setup(opts)
  opts = opts or {}
  local types = {
    socket = "string",
    namespace = "string",
    timeout_ms = "number",
    recall_limit = "number",
    notify_contradictions = "boolean",
  }
  for key, value in pairs(opts) do
    if types[key] == nil then
      error(("omegad.setup: unknown option %q"):format(tostring(key)), 2)
    elseif type(value) ~= types[key] then
      error(("omegad.setup: %s must be a %s, got %s"):format(key, types[key], type(value)), 2)
    end
  end
  if opts.recall_limit and (opts.recall_limit % 1 ~= 0 or opts.recall_limit < 1 or opts.recall_limit > 100) then
    error("omegad.setup: recall_limit must be an integer from 1 to 100", 2)
  end
  if opts.timeout_ms and opts.timeout_ms <= 0 then
    error("omegad.setup: timeout_ms must be positive", 2)
  end
  if opts.namespace and not paths.valid_namespace(opts.namespace) then
    error(
      ("omegad.setup: namespace %q is not valid (1–128 characters of A-Z a-z 0-9 . _ : @ / -, starting with a letter or digit)"):format(
        opts.namespace
      ),
      2
    )
  end
  unwatch()
  if client then
    client:close() -- the socket or timeout may have changed
    client = nil
  end
  M.config = vim.tbl_extend("force", vim.deepcopy(M.defaults), opts)
  local group = vim.api.nvim_create_augroup("omegad", { clear = true })
  if M.config.notify_contradictions then
    vim.api.nvim_create_autocmd("DirChanged", {
      group = group,
      callback = function()
        rewatch()
      end,
    })
    rewatch()
  end
end

--- The contradiction subscription handle, when notifications are on (for :checkhealth).
function M._watch()
  return watch
end

return M
