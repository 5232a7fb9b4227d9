--- Where things are: the daemon's socket, the project root, the namespace derived from it.
local M = {}

local uv = vim.uv or vim.loop

local function env(name)
  local v = os.getenv(name)
  if v == nil or v == "" then
    return nil
  end
  return v
end

local function home()
  return env("HOME") or uv.os_homedir()
end

--- `~` and `~/...` become the home directory, `~user/...` that user's (as Python's expanduser).
function M.expanduser(path)
  if path:sub(1, 1) ~= "~" then
    return path
  end
  local slash = path:find("/", 2, true)
  local user = path:sub(2, (slash or #path + 1) - 1)
  local rest = slash and path:sub(slash) or ""
  local dir
  if user == "" then
    dir = env("HOME") or uv.os_homedir()
  else
    local expanded = vim.fn.expand("~" .. user)
    if expanded:sub(1, 1) == "~" then
      return path -- unknown user: left as is, like Python
    end
    dir = expanded
  end
  if dir:sub(-1) == "/" and rest ~= "" then
    dir = dir:sub(1, -2)
  end
  return dir .. rest
end

--- A path spelled as Python's `pathlib` spells it: repeated slashes and `.` components
--- dropped, no trailing slash, `..` kept, a leading `//` (exactly two) kept.
function M.clean(path)
  local parts = {}
  for part in path:gmatch("[^/]+") do
    if part ~= "." then
      parts[#parts + 1] = part
    end
  end
  local joined = table.concat(parts, "/")
  if path:sub(1, 2) == "//" and path:sub(3, 3) ~= "/" then
    return "//" .. joined -- POSIX leaves a leading "//" to the implementation; pathlib keeps it
  elseif path:sub(1, 1) == "/" then
    return "/" .. joined
  end
  return joined == "" and "." or joined
end

--- The daemon's socket path and where it came from, resolved in the order of the Python
--- client (`omegad_client.protocol.default_socket_path`): the `socket` option, else
--- `$OMEGAD_SOCKET`, else `$XDG_RUNTIME_DIR/omegad/omegad.sock`, else
--- `$XDG_STATE_HOME/omegad/omegad.sock` (`~/.local/state` when unset). Empty variables count
--- as unset.
---@param explicit string|nil
---@return string path, string source
function M.socket(explicit)
  if explicit and explicit ~= "" then
    return M.clean(M.expanduser(explicit)), "setup{socket}"
  end
  local from_env = env("OMEGAD_SOCKET")
  if from_env then
    return M.clean(M.expanduser(from_env)), "$OMEGAD_SOCKET"
  end
  local runtime = env("XDG_RUNTIME_DIR")
  if runtime then
    return M.clean(runtime .. "/omegad/omegad.sock"), "$XDG_RUNTIME_DIR"
  end
  local state = env("XDG_STATE_HOME")
  if state then
    return M.clean(state .. "/omegad/omegad.sock"), "$XDG_STATE_HOME"
  end
  return M.clean(home() .. "/.local/state/omegad/omegad.sock"), "~/.local/state"
end

--- The project root: the git top-level above `dir` (default: the current directory), else
--- `dir` itself. A `.git` file counts too (worktrees, submodules).
function M.project_root(dir)
  dir = vim.fs.normalize(dir or uv.cwd())
  return vim.fs.root(dir, ".git") or dir
end

--- A name made fit for a namespace (docs/protocol.md, "Value rules": 1–128 characters of
--- `[A-Za-z0-9._:@/-]`, starting with a letter or digit): other characters become `-`, leading
--- ones that cannot start a namespace are dropped; nothing left gives `default`.
function M.sanitize_namespace(name)
  local s = (name or ""):gsub("[^A-Za-z0-9._:@/%-]+", "-")
  s = s:gsub("^[^A-Za-z0-9]+", "")
  s = s:sub(1, 128):gsub("%-+$", "")
  if s == "" then
    return "default"
  end
  return s
end

--- True when `name` is a valid namespace.
function M.valid_namespace(name)
  return type(name) == "string" and #name <= 128 and name:match("^[A-Za-z0-9][A-Za-z0-9._:@/%-]*$") ~= nil
end

--- The default namespace: the project root's directory name, sanitized.
function M.default_namespace(dir)
  return M.sanitize_namespace(vim.fs.basename(M.project_root(dir)))
end

--- `path` relative to `root` when it lies under it, else `path` unchanged.
function M.relative(path, root)
  path, root = vim.fs.normalize(path), vim.fs.normalize(root)
  if root:sub(-1) ~= "/" then
    root = root .. "/"
  end
  if path:sub(1, #root) == root then
    return path:sub(#root + 1)
  end
  return path
end

--- A memory's `metadata.file` as a path to open: absolute stays, relative is under `root`.
function M.absolute(file, root)
  file = M.expanduser(file)
  if file:sub(1, 1) == "/" then
    return vim.fs.normalize(file)
  end
  return vim.fs.normalize(vim.fs.joinpath(root, file))
end

return M
