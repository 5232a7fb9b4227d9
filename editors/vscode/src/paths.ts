/**
 * Where the daemon listens and which namespace a workspace uses: resolved exactly as the
 * Python client does (`omegad_client.protocol.default_socket_path`, docs/protocol.md
 * "Transport and framing") and under the daemon's namespace rules ("Value rules").
 * No `vscode`, no I/O beyond reading the password database for `~user`.
 */
import * as fs from "node:fs";
import * as os from "node:os";

export type Env = Record<string, string | undefined>;

/**
 * The socket path: `$OMEGAD_SOCKET` (with `~` expanded), else
 * `$XDG_RUNTIME_DIR/omegad/omegad.sock`, else `$XDG_STATE_HOME/omegad/omegad.sock`
 * (`$HOME/.local/state` when unset). Empty variables count as unset, as in Python.
 */
export function defaultSocketPath(env: Env = process.env): string {
  const explicit = env.OMEGAD_SOCKET;
  if (explicit) return expandUser(posixPath(explicit), env);
  const runtime = env.XDG_RUNTIME_DIR;
  if (runtime) return posixPath(runtime, "omegad", "omegad.sock");
  const state = env.XDG_STATE_HOME || posixPath(env.HOME || expandUser("~", env), ".local", "state");
  return posixPath(state, "omegad", "omegad.sock");
}

/** The `omegad.socketPath` setting when set (with `~` expanded), else `defaultSocketPath`. */
export function resolveSocketPath(setting: string | undefined | null, env: Env = process.env): string {
  const given = (setting ?? "").trim();
  return given ? expandUser(posixPath(given), env) : defaultSocketPath(env);
}

/**
 * `str(pathlib.PurePosixPath(*segments))`: an absolute segment starts over, repeated slashes
 * collapse, `.` parts and a trailing slash go, `..` stays, exactly two leading slashes are
 * kept, and the empty path is `.`.
 */
export function posixPath(...segments: string[]): string {
  let root = "";
  let parts: string[] = [];
  for (const segment of segments) {
    if (segment.startsWith("/")) {
      root = segment.startsWith("//") && !segment.startsWith("///") ? "//" : "/";
      parts = [];
    }
    parts.push(...segment.split("/").filter((part) => part !== "" && part !== "."));
  }
  return root + parts.join("/") || ".";
}

/** `Path.expanduser()` of a normalized path: only a leading `~` or `~user` part changes;
 * `~` is `$HOME` when set (even empty, as in Python), else the password database's entry. */
export function expandUser(p: string, env: Env = process.env): string {
  if (!p.startsWith("~")) return p;
  const slash = p.indexOf("/");
  const first = slash < 0 ? p : p.slice(0, slash);
  const rest = slash < 0 ? "" : p.slice(slash + 1);
  const user = first.slice(1);
  const home = user ? homeOf(user) : (env.HOME ?? homeOf(undefined));
  if (home === undefined) return p; // Python raises "Could not determine home directory"
  return posixPath(home.replace(/\/+$/, "") || "/", rest);
}

/** The home directory of `user` (undefined: the current user) from the password database. */
function homeOf(user: string | undefined): string | undefined;
function homeOf(user: undefined): string;
function homeOf(user: string | undefined): string | undefined {
  const me = os.userInfo();
  if (user === undefined || user === me.username) return me.homedir;
  try {
    for (const line of fs.readFileSync("/etc/passwd", "utf8").split("\n")) {
      const fields = line.split(":");
      if (fields[0] === user && fields.length >= 6) return fields[5];
    }
  } catch {
    // no readable password database: leave ~user unexpanded
  }
  return undefined;
}

/** Namespaces: 1–128 characters `[A-Za-z0-9._:@/-]`, starting with a letter or digit. */
export const NAMESPACE_PATTERN = /^[A-Za-z0-9][A-Za-z0-9._:@/-]{0,127}$/;

export const DEFAULT_NAMESPACE = "default";

export function isValidNamespace(name: string): boolean {
  return NAMESPACE_PATTERN.test(name);
}

/**
 * A folder name made into a namespace, as the Neovim plugin makes its project's (so both
 * editors store a project's memories in the same one): every run of characters the daemon
 * refuses becomes one `-`, leading characters that are not a letter or digit and trailing
 * dashes go, at most 128 characters; nothing left gives `fallback`.
 */
export function sanitizeNamespace(name: string, fallback = DEFAULT_NAMESPACE): string {
  let out = name.replace(/[^A-Za-z0-9._:@/-]+/g, "-");
  out = out
    .replace(/^[^A-Za-z0-9]+/, "")
    .slice(0, 128)
    .replace(/-+$/, "");
  return out && isValidNamespace(out) ? out : fallback;
}
