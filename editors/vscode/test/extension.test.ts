/**
 * extension.ts as VS Code runs it (`activate` with a stub `vscode` module) against a real
 * daemon: the manifest and the registrations agree, the status bar follows the daemon through
 * a restart, and the workspace's contradiction subscription survives it. Also: only
 * extension.ts imports `vscode`.
 */
import { strict as assert } from "node:assert";
import * as fs from "node:fs";
import Module = require("node:module");
import * as path from "node:path";
import { after, before, describe, test } from "node:test";
import { DARK, LIGHT, type Daemon, eventually, startDaemon } from "./helpers/daemon";
import { type Stub, editorOn, makeVscode, pick } from "./helpers/vscodeStub";

const ROOT = path.resolve(__dirname, "..", "..");
const manifest = JSON.parse(fs.readFileSync(path.join(ROOT, "package.json"), "utf8")) as {
  main: string;
  contributes: {
    commands: Array<{ command: string }>;
    views: Record<string, Array<{ id: string }>>;
    menus: Record<string, Array<{ command: string }>>;
    configuration: { properties: Record<string, unknown> };
  };
};

interface Harness {
  stub: Stub;
  commands: Map<string, (...args: unknown[]) => unknown>;
  views: string[];
  statusItem: { text: string; tooltip: string; command: string; shown: boolean };
  context: { subscriptions: Array<{ dispose(): unknown }> };
  configListeners: Array<(e: { affectsConfiguration(s: string): boolean }) => void>;
}

/** Loads out/src/extension.js with `vscode` resolved to the stub. */
function loadExtension(stub: Stub): { activate(ctx: unknown): void; harness: Omit<Harness, "stub" | "context"> } {
  const commands = new Map<string, (...args: unknown[]) => unknown>();
  const views: string[] = [];
  const statusItem = {
    text: "",
    tooltip: "",
    command: "",
    shown: false,
    name: "",
    backgroundColor: undefined as unknown,
  };
  const configListeners: Harness["configListeners"] = [];
  const disposable = { dispose: () => undefined };
  const api = stub.api as unknown as Record<string, Record<string, unknown>>;
  const vscode = {
    ...api,
    window: Object.assign(Object.create(api.window!), {
      createTreeView: (id: string) => {
        views.push(id);
        return { ...disposable, description: "" };
      },
      createStatusBarItem: () =>
        Object.assign(statusItem, { show: () => (statusItem.shown = true), dispose: () => undefined }),
      createOutputChannel: () => ({ ...disposable, info: () => undefined, warn: () => undefined }),
    }),
    workspace: Object.assign(Object.create(api.workspace!), {
      onDidChangeConfiguration: (l: Harness["configListeners"][number]) => {
        configListeners.push(l);
        return disposable;
      },
      onDidChangeWorkspaceFolders: () => disposable,
    }),
    commands: {
      ...api.commands,
      registerCommand: (id: string, run: (...args: unknown[]) => unknown) => {
        assert.ok(!commands.has(id), `${id} registered twice`);
        commands.set(id, run);
        return disposable;
      },
    },
    StatusBarAlignment: { Left: 1, Right: 2 },
    ThemeColor: class {
      constructor(readonly id: string) {}
    },
  };
  const loader = Module as unknown as { _load: (request: string, ...rest: unknown[]) => unknown };
  const load = loader._load;
  loader._load = function (request: string, ...rest: unknown[]) {
    return request === "vscode" ? vscode : load.call(this, request, ...rest);
  };
  try {
    const file = path.join(ROOT, manifest.main);
    delete require.cache[require.resolve(file)];
    const ext = require(file) as { activate(ctx: unknown): void };
    return { activate: ext.activate, harness: { commands, views, statusItem, configListeners } };
  } finally {
    loader._load = load;
  }
}

describe("extension activation", () => {
  let daemon: Daemon;
  let h: Harness;

  before(async () => {
    daemon = await startDaemon();
    const folder = path.join(daemon.base, "Ext Test");
    fs.mkdirSync(folder);
    fs.writeFileSync(path.join(folder, "notes.md"), "# Notes\nWe release on Tuesdays.\n");
    const stub = makeVscode([{ name: "Ext Test", path: folder }], { "omegad.socketPath": daemon.socket });
    const { activate, harness } = loadExtension(stub);
    const context = { subscriptions: [] as Array<{ dispose(): unknown }> };
    activate(context);
    h = { ...harness, stub, context };
  });
  after(async () => {
    for (const d of h?.context.subscriptions ?? []) d.dispose();
    await daemon?.cleanup();
  });

  test("every command, view and menu entry in package.json is wired, and nothing else", () => {
    const declared = manifest.contributes.commands.map((c) => c.command).sort();
    assert.deepEqual([...h.commands.keys()].sort(), declared);
    const viewIds = Object.values(manifest.contributes.views).flatMap((vs) => vs.map((v) => v.id));
    assert.deepEqual(h.views.sort(), viewIds.sort());
    for (const entries of Object.values(manifest.contributes.menus)) {
      for (const entry of entries)
        assert.ok(declared.includes(entry.command), `menu entry for unknown ${entry.command}`);
    }
    assert.deepEqual(Object.keys(manifest.contributes.configuration.properties).sort(), [
      "omegad.namespace",
      "omegad.requestTimeoutSeconds",
      "omegad.socketPath",
    ]);
  });

  test("the status bar shows the connected daemon and opens the details", async () => {
    await eventually(() => (h.statusItem.text === "$(database) omegad" ? true : undefined));
    assert.ok(h.statusItem.shown);
    assert.equal(h.statusItem.command, "omegad.showStatus");
    await h.commands.get("omegad.showStatus")!();
    assert.match(h.stub.opened.at(-1)!.content!, /^ok {6}daemon {11}omegad /m);
  });

  test("Remember Selection through the registered command, into the folder's namespace", async () => {
    h.stub.setEditor(editorOn(path.join(h.stub.folders[0]!.uri.fsPath, "notes.md"), "markdown", 1, 1));
    h.stub.answers.quickPick.push(pick("fact"));
    await h.commands.get("omegad.rememberSelection")!();
    const client = daemon.client();
    try {
      const { memories } = await client.list({ namespace: "Ext-Test" });
      assert.deepEqual(
        memories.map((m) => [m.text, m.type, m.metadata]),
        [["We release on Tuesdays.", "fact", { project: "Ext Test", file: "notes.md", line: 2, language: "markdown" }]],
      );
    } finally {
      client.close();
    }
  });

  test("contradictions in the workspace's namespace are announced, also after a daemon restart", async () => {
    const client = daemon.client();
    try {
      h.stub.answers.message.push("Keep new");
      await client.store({ text: DARK, namespace: "Ext-Test" });
      await client.store({ text: LIGHT, namespace: "Ext-Test" });
      await client.flush();
      await eventually(async () =>
        (await client.contradictions({ namespace: "Ext-Test" }))[0]?.resolution === "keep_new" ? true : undefined,
      );
    } finally {
      client.close();
    }

    assert.equal(await daemon.stop(), 0, daemon.log());
    await eventually(() => (h.statusItem.text === "$(circle-slash) omegad: not running" ? true : undefined));
    await daemon.start();
    // no command is run: the client reconnects for its subscriptions and the bar follows
    await eventually(() => (h.statusItem.text === "$(database) omegad" ? true : undefined), 30_000);

    const again = daemon.client();
    try {
      const before = h.stub.messages.filter((m) => m.level === "warning").length;
      await again.store({ text: "Our package manager is npm", namespace: "Ext-Test" });
      await again.store({ text: "Our package manager is pnpm", namespace: "Ext-Test" });
      await again.flush();
      const shown = await eventually(() => h.stub.messages.filter((m) => m.level === "warning")[before]);
      assert.match(shown.message, /contradicts an older one in Ext-Test: “Our package manager is pnpm”/);
    } finally {
      again.close();
    }
  });
});

test("only extension.ts imports vscode at run time", () => {
  const dir = path.join(ROOT, "out", "src");
  const importers = fs
    .readdirSync(dir)
    .filter((f) => f.endsWith(".js"))
    .filter((f) => /require\("vscode"\)/.test(fs.readFileSync(path.join(dir, f), "utf8")));
  assert.deepEqual(importers, ["extension.js"]);
});
