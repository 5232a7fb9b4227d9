/**
 * Every command and view through the `vscode` stub, against a real daemon: what the user is
 * asked, what is stored, what is shown and opened.
 */
import { strict as assert } from "node:assert";
import * as fs from "node:fs";
import * as path from "node:path";
import { after, before, describe, test } from "node:test";
import { OmegadClient } from "../src/client";
import { Commands, REMEMBER_TYPES } from "../src/commands";
import { type ContradictionNode, ContradictionsProvider, type EdgeNode } from "../src/contradictionsView";
import { type MemoriesNode, MemoriesProvider, type MemoryNode, type NamespaceNode } from "../src/memoriesView";
import { daemonChecks, probeStatus, statusBarView, statusReport } from "../src/status";
import type { Memory } from "../src/types";
import { workspaceNamespace } from "../src/workspace";
import { DARK, LIGHT, type Daemon, eventually, startDaemon } from "./helpers/daemon";
import { Selection, type Stub, type TreeItem, editorOn, makeVscode, pick } from "./helpers/vscodeStub";

const APP = ["import os", "TOKEN_TTL = 900  # seconds", "def refresh(token):", "    return token", ""].join("\n");

let counter = 0;

/** A workspace folder (a unique name, so namespaces never collide) with src/app.py. */
function workspace(base: string, label = "Proj"): { folder: string; name: string; app: string } {
  counter += 1;
  const name = `${label} ${counter} (${process.pid})`;
  const folder = path.join(base, name);
  fs.mkdirSync(path.join(folder, "src"), { recursive: true });
  const app = path.join(folder, "src", "app.py");
  fs.writeFileSync(app, APP);
  return { folder, name, app };
}

interface Setup {
  stub: Stub;
  client: OmegadClient;
  commands: Commands;
  memories: MemoriesProvider;
  contradictions: ContradictionsProvider;
  ns: string;
  app: string;
  folder: string;
  name: string;
  calls: Array<{ method: string; params: Record<string, unknown> }>;
}

describe("commands and views", () => {
  let daemon: Daemon;
  let base: string;
  const clients: OmegadClient[] = [];

  before(async () => {
    daemon = await startDaemon();
    base = fs.mkdtempSync(path.join(daemon.base, "ws-"));
  });
  after(async () => {
    for (const c of clients) c.close();
    await daemon?.cleanup();
  });

  function setup(options: { socketPath?: string; pageSize?: number } = {}): Setup {
    const ws = workspace(base);
    const stub = makeVscode([{ name: ws.name, path: ws.folder }]);
    const client = new OmegadClient({ socketPath: options.socketPath ?? daemon.socket, timeoutMs: 60_000 });
    clients.push(client);
    const calls: Setup["calls"] = [];
    const call = client.call.bind(client);
    client.call = (method, params = {}, opts) => {
      calls.push({ method, params: params as Record<string, unknown> });
      return call(method, params, opts);
    };
    const ns = workspaceNamespace(stub.api);
    const memories = new MemoriesProvider(stub.api, client, () => ns, { pageSize: options.pageSize ?? 50 });
    const contradictions = new ContradictionsProvider(stub.api, client, () => ns);
    const commands = new Commands(stub.api, client, { memories, contradictions });
    return { stub, client, commands, memories, contradictions, ns, calls, ...ws };
  }

  async function listAll(client: OmegadClient, namespace: string): Promise<Memory[]> {
    return (await client.list({ namespace, limit: 500 })).memories;
  }

  test("the workspace namespace is the folder name made valid", () => {
    const s = setup();
    assert.match(s.ns, /^Proj-\d+-\d+$/);
  });

  test("Remember Selection stores the selection with its type, namespace and place", async () => {
    const s = setup();
    s.stub.setEditor(editorOn(s.app, "python", 1, 2));
    s.stub.answers.quickPick.push(pick("decision"));
    await s.commands.rememberSelection();
    assert.deepEqual(
      s.stub.quickPicks[0]!.items.map((i) => i.label),
      [...REMEMBER_TYPES],
    );
    assert.deepEqual(
      [...REMEMBER_TYPES],
      ["decision", "lesson", "preference", "fact", "error", "todo", "note", "memory"],
    );
    const [memory] = await listAll(s.client, s.ns);
    assert.ok(memory);
    assert.equal(memory.text, "TOKEN_TTL = 900  # seconds\ndef refresh(token):");
    assert.equal(memory.type, "decision");
    assert.deepEqual(memory.metadata, { project: s.name, file: "src/app.py", line: 2, language: "python" });
    assert.equal(s.stub.messages.length, 1);
    assert.equal(s.stub.messages[0]!.level, "info");
    assert.match(s.stub.messages[0]!.message, /remembered a decision in Proj-.* \(src\/app\.py:2\)/);
  });

  test("Remember Selection: dismissing the type pick stores nothing; no selection asks for the text", async () => {
    const s = setup();
    s.stub.setEditor(editorOn(s.app, "python", 1, 2));
    await s.commands.rememberSelection(); // no answer queued: the quick pick is dismissed
    assert.equal((await listAll(s.client, s.ns)).length, 0);
    assert.equal(s.stub.messages.length, 0);

    const empty = editorOn(s.app, "python", 2, 2);
    empty.selection = new Selection(2, 0, 2, 0);
    s.stub.setEditor(empty);
    s.stub.answers.inputBox.push("refresh() keeps the token as is");
    s.stub.answers.quickPick.push(pick("note"));
    await s.commands.rememberSelection();
    assert.equal(s.stub.inputBoxes[0]!.value, "def refresh(token):");
    const [memory] = await listAll(s.client, s.ns);
    assert.equal(memory?.text, "refresh() keeps the token as is");
    assert.equal(memory?.type, "note");
    assert.equal(memory?.metadata.line, 3);

    s.stub.setEditor(undefined);
    await s.commands.rememberSelection();
    assert.equal(s.stub.messages.at(-1)!.level, "warning");
  });

  test("Recall queries with the editor's context and opens the chosen memory's file and line", async () => {
    const s = setup();
    s.stub.setEditor(editorOn(s.app, "python", 1, 1));
    s.stub.answers.quickPick.push(pick("fact"));
    await s.commands.rememberSelection(); // "TOKEN_TTL = 900  # seconds" at src/app.py:2
    await s.client.store({ text: "Access tokens expire after fifteen minutes", namespace: s.ns, type: "fact" });

    s.stub.answers.inputBox.push("how long do tokens live?");
    s.stub.answers.quickPick.push((items) => items.find((i) => i.label.startsWith("TOKEN_TTL")));
    await s.commands.recall();
    const queries = s.calls.filter((c) => c.method === "query");
    assert.equal(queries.length, 1, "the daemon took the context (no retry without it)");
    const query = queries[0]!;
    assert.deepEqual(query.params.context, { project: s.name, file: "src/app.py", language: "python" });
    assert.equal(query.params.namespace, s.ns);
    const picked = s.stub.quickPicks.at(-1)!;
    assert.equal(picked.items.length, 2);
    const withFile = picked.items.find((i) => String(i.label).startsWith("TOKEN_TTL"))!;
    assert.match(String(withFile.detail), /^src\/app\.py:2 · \d{4}-\d\d-\d\d \d\d:\d\d$/);
    assert.match(String(withFile.description), /^fact · \d\.\d\d$/);
    assert.deepEqual(s.stub.opened, [{ file: s.app, line: 2 }]);

    // a memory without a file is shown as a message
    s.stub.answers.inputBox.push("token expiry");
    s.stub.answers.quickPick.push((items) => items.find((i) => i.label.startsWith("Access tokens")));
    await s.commands.recall();
    assert.equal(s.stub.messages.at(-1)!.message, "Access tokens expire after fifteen minutes");
  });

  test("Recall: nothing found says so; an empty question does nothing", async () => {
    const s = setup();
    s.stub.answers.inputBox.push("anything at all?");
    await s.commands.recall();
    assert.match(s.stub.messages.at(-1)!.message, /remembers nothing in Proj-.* that matches “anything at all\?”/);
    assert.equal(s.stub.quickPicks.length, 0);
    await s.commands.recall(); // dismissed
    assert.equal(s.calls.filter((c) => c.method === "query").length, 1);
  });

  test("a daemon that is not running: one error message with the fix", async () => {
    const s = setup({ socketPath: path.join(daemon.base, "nobody.sock") });
    s.stub.answers.inputBox.push("question");
    await s.commands.recall();
    const [shown] = s.stub.messages;
    assert.equal(shown?.level, "error");
    assert.match(shown!.message, /omegad is not running \(.*nobody\.sock\)\. Start it with `omegad serve`/);
    const [root] = await s.memories.getChildren();
    assert.equal(root?.kind, "message");
  });

  test("Memories view: namespaces, newest first, paged with Load more", async () => {
    const s = setup({ pageSize: 2 });
    for (let i = 0; i < 5; i++) {
      await s.client.store({ text: `memory ${i}`, namespace: s.ns, created_at: `2026-01-0${i + 1}T10:00:00Z` });
    }
    const roots = (await s.memories.getChildren()) as NamespaceNode[];
    assert.equal(roots[0]!.name, s.ns, "the workspace's namespace comes first");
    assert.equal(roots[0]!.count, 5);
    const nsItem = s.memories.getTreeItem(roots[0]!) as unknown as TreeItem;
    assert.equal(nsItem.collapsibleState, 2);
    assert.equal(nsItem.description, "5 memories");

    const texts = async () => {
      const children = await s.memories.getChildren(roots[0]);
      return children.map((c) => (c.kind === "memory" ? c.memory.text : c.kind));
    };
    assert.deepEqual(await texts(), ["memory 4", "memory 3", "more"]);
    const more = (await s.memories.getChildren(roots[0])).at(-1)!;
    const moreItem = s.memories.getTreeItem(more) as unknown as TreeItem;
    assert.equal(moreItem.label, "Load more…");
    assert.equal(moreItem.command?.command, "omegad.loadMore");
    await s.commands.loadMore(more);
    assert.deepEqual(await texts(), ["memory 4", "memory 3", "memory 2", "memory 1", "more"]);
    await s.commands.loadMore(more);
    assert.deepEqual(await texts(), ["memory 4", "memory 3", "memory 2", "memory 1", "memory 0"]);
    assert.equal(s.calls.filter((c) => c.method === "list").length, 3);
    assert.ok(
      s.calls
        .filter((c) => c.method === "list")
        .slice(1)
        .every((c) => typeof c.params.cursor === "string"),
    );

    const memoryItem = s.memories.getTreeItem((await s.memories.getChildren(roots[0]))[0]!) as unknown as TreeItem;
    assert.equal(memoryItem.label, "memory 4");
    assert.equal(memoryItem.contextValue, "memory");
    assert.equal(memoryItem.description, "memory · 2026-01-05 10:00");
    assert.equal(memoryItem.command?.command, "omegad.openMemory");
  });

  test("Memories view: edit in place, delete with confirmation, rate up and down", async () => {
    const s = setup();
    await s.client.store({ text: "We use tabs", namespace: s.ns, type: "preference" });
    const [root] = (await s.memories.getChildren()) as NamespaceNode[];
    const node = (await s.memories.getChildren(root)).find((n): n is MemoryNode => n.kind === "memory")!;

    s.stub.answers.inputBox.push("We use four spaces");
    await s.commands.editMemory(node);
    assert.equal(s.stub.inputBoxes[0]!.value, "We use tabs");
    const edited = await s.client.get(node.memory.id);
    assert.equal(edited.text, "We use four spaces");
    assert.equal(edited.version, 2);
    assert.equal((s.memories.getTreeItem(node) as unknown as TreeItem).label, "We use four spaces");

    await s.commands.rateMemory(node, 1);
    assert.match(s.stub.messages.at(-1)!.message, /rated up \(feedback 1\.00 from 1 rating\)/);
    await s.commands.rateMemory(node, -1);
    const rated = await s.client.get(node.memory.id);
    assert.equal(rated.ratings, 2);
    assert.equal(
      s.calls
        .filter((c) => c.method === "feedback")
        .map((c) => c.params.score)
        .join(","),
      "1,-1",
    );

    await s.commands.deleteMemory(node); // dismissed
    const asked = s.stub.messages.at(-1)!;
    assert.equal(asked.level, "warning");
    assert.equal(asked.options?.modal, true);
    assert.deepEqual(asked.items, ["Delete"]);
    assert.equal((await s.client.get(node.memory.id)).id, node.memory.id);
    s.stub.answers.message.push("Delete");
    await s.commands.deleteMemory(node);
    await assert.rejects(s.client.get(node.memory.id), (err: { code: string }) => err.code === "not_found");
    assert.deepEqual(await s.memories.getChildren(root), []);
    assert.equal(root!.count, 0);
  });

  test("Memories view follows stored / updated / deleted events", async () => {
    const s = setup();
    await s.client.store({ text: "first", namespace: s.ns });
    const [root] = (await s.memories.getChildren()) as NamespaceNode[];
    assert.equal((await s.memories.getChildren(root)).length, 1);
    const sub = s.client.subscribe(["stored", "updated", "deleted"], (e) => s.memories.applyEvent(e));
    await sub.ready;
    const other = daemon.client();
    clients.push(other);
    const { id } = await other.store({ text: "second, from an agent", namespace: s.ns });
    const texts = async () =>
      (await s.memories.getChildren(root)).map((n) => (n.kind === "memory" ? n.memory.text : n.kind));
    await eventually(async () => ((await texts())[0] === "second, from an agent" ? true : undefined));
    assert.equal(root!.count, 2);
    await other.update({ id, text: "second, edited" });
    await eventually(async () => ((await texts())[0] === "second, edited" ? true : undefined));
    await other.delete(id);
    await eventually(async () => ((await texts()).length === 1 ? true : undefined));
    assert.deepEqual(await texts(), ["first"]);
    await sub.dispose();
  });

  test("Contradictions view: the pair, resolve keep-new / keep-old / both-valid, reopen", async () => {
    const s = setup();
    const old = await s.client.store({ text: DARK, namespace: s.ns, type: "preference" });
    const newer = await s.client.store({ text: LIGHT, namespace: s.ns, type: "preference" });
    await s.client.flush();
    const [edgeNode] = (await s.contradictions.getChildren()) as EdgeNode[];
    assert.ok(edgeNode && edgeNode.kind === "edge", "one flagged pair");
    assert.equal(edgeNode.edge.source, newer.id);
    const item = s.contradictions.getTreeItem(edgeNode) as unknown as TreeItem;
    assert.equal(item.label, LIGHT);
    assert.equal(item.contextValue, "contradiction");
    assert.match(String(item.description), /^vs “The user prefers dark mode in every editor” · confidence \d\.\d\d$/);
    const sides = await s.contradictions.getChildren(edgeNode);
    assert.deepEqual(
      sides.map((n) => (n.kind === "side" ? `${n.side}:${n.memory.id}` : n.kind)),
      [`new:${newer.id}`, `old:${old.id}`],
    );

    for (const resolution of ["keep_new", "keep_old", "both_valid"] as const) {
      await s.commands.resolve(edgeNode, resolution);
      const [edge] = await s.client.contradictions({ namespace: s.ns });
      assert.equal(edge?.resolution, resolution);
      await s.client.unresolve(newer.id, old.id);
    }
    await s.commands.resolve(edgeNode, "keep_new");
    const [resolved] = (await s.contradictions.getChildren()) as EdgeNode[];
    assert.equal(
      (s.contradictions.getTreeItem(resolved!) as unknown as TreeItem).contextValue,
      "contradiction.resolved",
    );
    await s.commands.unresolve(resolved);
    const [reopened] = await s.client.contradictions({ namespace: s.ns });
    assert.equal(reopened?.resolution, null);
    assert.equal(s.stub.messages.filter((m) => m.level === "error").length, 0);

    // a side opens its memory (no file: shown as a message)
    const side = sides[1] as ContradictionNode;
    const sideItem = s.contradictions.getTreeItem(side) as unknown as TreeItem;
    await s.commands.openMemory(sideItem.command!.arguments![0] as string);
    assert.equal(s.stub.messages.at(-1)!.message, DARK);
  });

  test("a contradiction event in the workspace namespace is announced and can be resolved there", async () => {
    const s = setup();
    const sub = s.client.subscribe(["contradiction"], (e) => void s.commands.contradictionNotice(e), s.ns);
    await sub.ready;
    s.stub.answers.message.push("Both valid");
    const other = daemon.client();
    clients.push(other);
    await other.store({ text: "Our package manager is npm", namespace: s.ns });
    await other.store({ text: "Our package manager is pnpm", namespace: s.ns });
    await other.flush();
    const shown = await eventually(() => s.stub.messages.find((m) => m.level === "warning"));
    assert.match(
      shown.message,
      /a new memory contradicts an older one in Proj-.*: “Our package manager is pnpm” vs “Our package manager is npm”/,
    );
    assert.deepEqual(shown.items, ["Keep new", "Keep old", "Both valid", "Show"]);
    await eventually(async () =>
      (await s.client.contradictions({ namespace: s.ns }))[0]?.resolution === "both_valid" ? true : undefined,
    );

    // "Show" focuses the view
    s.stub.answers.message.push("Show");
    await other.store({ text: "The user prefers dark mode in every editor", namespace: s.ns });
    await other.store({ text: "The user switched to light mode in every editor", namespace: s.ns });
    await other.flush();
    await eventually(() => (s.stub.executed.length ? true : undefined));
    assert.deepEqual(s.stub.executed, [{ command: "omegad.contradictions.focus", args: [] }]);
    await sub.dispose();
  });

  test("status bar and details: connected (reranker state), not running, degraded", async () => {
    const s = setup();
    const status = await probeStatus(s.client);
    assert.equal(status.state, "connected");
    const view = statusBarView(status);
    assert.equal(view.text, "$(database) omegad");
    assert.equal(view.severity, "ok");
    assert.match(view.tooltip, /omegad \d+\.\d+\.\d+ at .*d\.sock\nconnected\nreranker: missing/);

    await s.commands.showStatus();
    const [doc] = s.stub.opened;
    assert.equal(doc?.language, "plaintext");
    const report = doc!.content!;
    assert.match(report, /^ok {6}daemon {11}omegad \S+ at .*d\.sock, protocol 1, up \d+ s$/m);
    assert.match(report, /^ok {6}embedding model {2}sentence-transformers\/all-MiniLM-L6-v2 \(.*, dim 384\), ready$/m);
    assert.match(
      report,
      /^warning reranker {9}missing \(.*no-reranker-model\): queries keep the heuristic order · fix: .*omegad models fetch reranker`$/m,
    );
    assert.match(report, /^ok {6}store {12}\d+ memories, \d+ fragments/m);
    assert.match(report, new RegExp(`^ok {6}namespace {8}${s.ns} \\(this workspace\\): no memories yet$`, "m"));

    const down = setup({ socketPath: path.join(daemon.base, "nobody.sock") });
    const downView = statusBarView(await probeStatus(down.client));
    assert.equal(downView.text, "$(circle-slash) omegad: not running");
    await down.commands.showStatus();
    assert.match(
      down.stub.opened[0]!.content!,
      /^warning daemon {11}not running at .*nobody\.sock \(no socket\) · fix: omegad serve \(foreground\) or omegad service install$/m,
    );

    const degraded = {
      ...status,
      state: "degraded" as const,
      hello: {
        ...status.hello!,
        status: "degraded",
        problems: [
          { code: "disk_full", message: "the data directory's disk is full", fix: "free space on /data", detail: null },
        ],
      },
    };
    const degradedView = statusBarView(degraded);
    assert.equal(degradedView.text, "$(warning) omegad: degraded (disk_full)");
    assert.equal(degradedView.severity, "warning");
    const checks = daemonChecks(degraded);
    assert.equal(checks[0]!.level, "error");
    assert.deepEqual(checks[1], {
      level: "error",
      name: "daemon disk_full",
      detail: "the data directory's disk is full",
      fix: "free space on /data",
    });
    assert.match(
      statusReport(degraded),
      /^error {3}daemon disk_full the data directory's disk is full · fix: free space on \/data$/m,
    );
    const future = statusBarView(
      await probeStatus(
        Object.assign(Object.create(s.client), { hello: async () => ({ ...status.hello!, protocol: 2 }) }),
      ),
    );
    assert.equal(future.text, "$(error) omegad: error");
    assert.match(future.tooltip, /the daemon speaks protocol 2, this extension protocol 1/);
    // whatever is missing, every line still prints
    assert.ok(
      statusReport({ state: "connected", socketPath: "/s", hello: {} as never, stats: { store: null, models: null } }),
    );
  });

  test("open memory: a file that no longer exists is said, with the memory's text", async () => {
    const s = setup();
    const { id } = await s.client.store({
      text: "see the gone file",
      namespace: s.ns,
      metadata: { file: "src/gone.py", line: 4 },
    });
    await s.commands.openMemory(id);
    assert.match(s.stub.messages.at(-1)!.message, /src\/gone\.py cannot be opened; the memory says: see the gone file/);
    const node: MemoriesNode = { kind: "memory", memory: await s.client.get(id) };
    fs.writeFileSync(path.join(s.folder, "src", "gone.py"), "a\nb\nc\nd\ne\n");
    await s.commands.openMemory(node);
    assert.deepEqual(s.stub.opened.at(-1), { file: path.join(s.folder, "src", "gone.py"), line: 4 });
  });
});
