/** Socket path resolution (checked against the Python client itself) and namespace rules. */
import { strict as assert } from "node:assert";
import * as os from "node:os";
import { describe, test } from "node:test";
import {
  defaultSocketPath,
  isValidNamespace,
  posixPath,
  resolveSocketPath,
  sanitizeNamespace,
  type Env,
} from "../src/paths";
import { resolveNamespace } from "../src/workspace";
import { python } from "./helpers/daemon";

const HOME = "/home/someone";
const me = os.userInfo();

const CASES: Env[] = [
  { HOME, OMEGAD_SOCKET: "/tmp/x.sock" },
  { HOME, OMEGAD_SOCKET: "/tmp//a/./b/../c.sock/" },
  { HOME, OMEGAD_SOCKET: "~/s.sock" },
  { HOME: `${HOME}/`, OMEGAD_SOCKET: "~//deep/s.sock" },
  { HOME, OMEGAD_SOCKET: "~" },
  { HOME, OMEGAD_SOCKET: `~${me.username}/mine.sock` },
  { HOME, OMEGAD_SOCKET: "~no-such-user-omegad/s.sock" },
  { HOME, OMEGAD_SOCKET: "relative/./s.sock" },
  { HOME, OMEGAD_SOCKET: "//net/s.sock" },
  { HOME, OMEGAD_SOCKET: "///three/s.sock" },
  { HOME, OMEGAD_SOCKET: "", XDG_RUNTIME_DIR: "/run/user/1000" },
  { HOME, XDG_RUNTIME_DIR: "/run/user/1000/" },
  { HOME, XDG_RUNTIME_DIR: "", XDG_STATE_HOME: "/state//home" },
  { HOME, XDG_RUNTIME_DIR: "run-rel", XDG_STATE_HOME: "/ignored" },
  { HOME, XDG_STATE_HOME: "" },
  { HOME: "" },
  { HOME: "/" },
  {},
];

describe("socket path", () => {
  test("resolves exactly as omegad_client.protocol.default_socket_path does", () => {
    const script = [
      "import json, os, sys",
      "from omegad_client.protocol import default_socket_path",
      "out = []",
      "for env in json.load(sys.stdin):",
      "    os.environ.clear(); os.environ.update(env)",
      "    try:",
      "        out.append(str(default_socket_path(env)))",
      "    except RuntimeError as exc:",
      "        out.append('error: ' + str(exc))",
      "print(json.dumps(out))",
    ].join("\n");
    const expected = JSON.parse(python(script, JSON.stringify(CASES))) as string[];
    CASES.forEach((env, i) => {
      const want = expected[i]!;
      // Python refuses a `~user` it cannot find; we leave the path as is (connecting then fails).
      if (want.startsWith("error: ")) assert.equal(defaultSocketPath(env), env.OMEGAD_SOCKET, JSON.stringify(env));
      else assert.equal(defaultSocketPath(env), want, JSON.stringify(env));
    });
  });

  test("the setting wins over the environment, with ~ expanded", () => {
    const env = { HOME, OMEGAD_SOCKET: "/from/env.sock" };
    assert.equal(resolveSocketPath("~/from/setting.sock", env), `${HOME}/from/setting.sock`);
    assert.equal(resolveSocketPath("  ", env), "/from/env.sock");
    assert.equal(resolveSocketPath(undefined, env), "/from/env.sock");
  });

  test("posixPath is str(PurePosixPath(p))", () => {
    assert.equal(posixPath(""), ".");
    assert.equal(posixPath("a/./b//c/"), "a/b/c");
    assert.equal(posixPath("//a"), "//a");
    assert.equal(posixPath("////a"), "/a");
  });
});

describe("namespace", () => {
  test("folder names become valid namespaces", () => {
    const cases: Array<[string, string]> = [
      ["webapp", "webapp"],
      ["My Project (2)", "My-Project-2"],
      ["Café Crème", "Caf-Cr-me"],
      ["naïve 😀 idea", "na-ve-idea"],
      ["_private", "private"],
      [".dotfiles", "dotfiles"],
      ["--x--", "x"],
      ["a:b@c/d.e_f-g", "a:b@c/d.e_f-g"],
      ["日本語", "default"],
      ["", "default"],
      ["x".repeat(200), "x".repeat(128)],
      [`${"y".repeat(127)} z`, "y".repeat(127)],
    ];
    for (const [name, want] of cases) {
      const got = sanitizeNamespace(name);
      assert.equal(got, want, name);
      assert.ok(isValidNamespace(got), got);
    }
  });

  test("the setting wins; an invalid setting is made valid; no folder is default", () => {
    assert.equal(resolveNamespace("team:shared", "folder"), "team:shared");
    assert.equal(resolveNamespace("bad name!", "folder"), "bad-name");
    assert.equal(resolveNamespace("", "My Folder"), "My-Folder");
    assert.equal(resolveNamespace(undefined, undefined), "default");
  });

  test("the daemon's own rule agrees", () => {
    const names = ["ok", "My-Project-2", "a:b@c/d.e_f-g", "_x", "-x", "a b", "x".repeat(128), "x".repeat(129), ""];
    const script = [
      "import json, sys",
      "from omegad.rpc.fields import NAMESPACE_RE",
      "print(json.dumps([bool(NAMESPACE_RE.fullmatch(n)) for n in json.load(sys.stdin)]))",
    ].join("\n");
    const daemon = JSON.parse(python(script, JSON.stringify(names))) as boolean[];
    assert.deepEqual(names.map(isValidNamespace), daemon);
  });
});
