/**
 * The socket client against a real daemon (and, for what a real daemon will not do on demand
 * — answer out of order, never answer, lose track of an id — against small fake servers).
 */
import { strict as assert } from "node:assert";
import * as fs from "node:fs";
import * as net from "node:net";
import * as path from "node:path";
import { after, before, describe, test } from "node:test";
import { encode } from "@msgpack/msgpack";
import { OmegadClient } from "../src/client";
import { OmegadError } from "../src/errors";
import { FrameDecoder } from "../src/protocol";
import type { Memory, OmegadEvent } from "../src/types";
import { DARK, LIGHT, type Daemon, eventually, freshNamespace, python, startDaemon } from "./helpers/daemon";

function frame(obj: unknown): Buffer {
  const body = encode(obj);
  const out = Buffer.alloc(4 + body.length);
  out.writeUInt32BE(body.length, 0);
  out.set(body, 4);
  return out;
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

interface Fake {
  path: string;
  received: Array<Record<string, unknown>>;
  connections: number;
  close(): Promise<void>;
}

/** A server that hands every decoded request to `onRequest` with its socket. */
async function fakeServer(
  onRequest: (msg: Record<string, unknown>, socket: net.Socket, fake: Fake) => void,
): Promise<Fake> {
  const dir = fs.mkdtempSync(path.join("/tmp", "odf-"));
  const sockets = new Set<net.Socket>();
  const fake: Fake = {
    path: path.join(dir, "f.sock"),
    received: [],
    connections: 0,
    close: async () => {
      for (const s of sockets) s.destroy();
      await new Promise((r) => server.close(r));
      fs.rmSync(dir, { recursive: true, force: true });
    },
  };
  const server = net.createServer((socket) => {
    fake.connections += 1;
    sockets.add(socket);
    const decoder = new FrameDecoder();
    socket.on("data", (chunk) =>
      decoder.push(chunk, (msg) => {
        fake.received.push(msg);
        onRequest(msg, socket, fake);
      }),
    );
    socket.on("error", () => undefined);
  });
  await new Promise<void>((r) => server.listen(fake.path, r));
  return fake;
}

async function rejectsWith(promise: Promise<unknown>, code: string): Promise<OmegadError> {
  try {
    await promise;
  } catch (err) {
    assert.ok(err instanceof OmegadError, `not an OmegadError: ${String(err)}`);
    assert.equal(err.code, code, err.message);
    return err;
  }
  assert.fail(`expected an error with code ${code}`);
}

let daemon: Daemon;

before(async () => {
  daemon = await startDaemon();
});
after(async () => {
  await daemon?.cleanup();
});

describe("client against a real daemon", () => {
  let client: OmegadClient;

  before(() => {
    client = daemon.client();
  });
  after(() => client?.close());

  test("hello, store, get, and daemon errors with their codes and data", async () => {
    const hello = await client.hello();
    assert.equal(hello.protocol, 1);
    assert.equal(hello.reranker?.state, "missing");
    const ns = freshNamespace();
    const { id, created } = await client.store({
      text: "We deploy on Fridays",
      type: "decision",
      namespace: ns,
      metadata: { line: 3 },
    });
    assert.equal(created, true);
    const got = await client.get(id);
    assert.equal(got.text, "We deploy on Fridays");
    assert.deepEqual(got.metadata, { line: 3 });
    assert.equal(client.state, "opened");
    await rejectsWith(client.get("no-such-memory"), "not_found");
    const err = await rejectsWith(client.store({ text: "x", type: "nonsense" }), "invalid_params");
    assert.equal(err.data.param, "params.type");
    // the metadata's integer reached the daemon as an int (Python's view of the stored memory)
    const kind = python(
      `from omegad_client import Client\nprint(type(Client(${JSON.stringify(daemon.socket)}).get(${JSON.stringify(id)})["metadata"]["line"]).__name__)`,
    );
    assert.equal(kind.trim(), "int");
  });

  test("a reply fed to the client one byte at a time", async (t) => {
    const proxyDir = fs.mkdtempSync(path.join("/tmp", "odp-"));
    const proxyPath = path.join(proxyDir, "p.sock");
    const proxy = net.createServer((downstream) => {
      const upstream = net.createConnection({ path: daemon.socket });
      downstream.pipe(upstream);
      let queue = Promise.resolve();
      upstream.on("data", (chunk: Buffer) => {
        queue = queue.then(async () => {
          for (const byte of chunk) {
            if (downstream.destroyed) return;
            downstream.write(Buffer.from([byte]));
            await new Promise((r) => setImmediate(r));
          }
        });
      });
      const end = () => {
        upstream.destroy();
        downstream.destroy();
      };
      downstream.on("close", end).on("error", end);
      upstream.on("close", end).on("error", end);
    });
    await new Promise<void>((r) => proxy.listen(proxyPath, r));
    t.after(async () => {
      await new Promise((r) => proxy.close(r));
      fs.rmSync(proxyDir, { recursive: true, force: true });
    });
    const chunks: number[] = [];
    const push = FrameDecoder.prototype.push;
    FrameDecoder.prototype.push = function (this: FrameDecoder, chunk, onMessage) {
      chunks.push(chunk.length);
      return push.call(this, chunk, onMessage);
    };
    t.after(() => {
      FrameDecoder.prototype.push = push;
    });
    const slow = new OmegadClient({ socketPath: proxyPath, timeoutMs: 60_000 });
    try {
      const [hello, stats] = await Promise.all([slow.hello(), slow.stats()]);
      assert.equal(hello.protocol, 1);
      assert.equal(typeof stats.memories, "number");
    } finally {
      slow.close();
    }
    const bytes = chunks.reduce((a, b) => a + b, 0);
    assert.ok(bytes > 200, `only ${bytes} bytes`);
    // Nearly every read held one byte (the kernel may merge a few writes into one read).
    assert.ok(chunks.filter((n) => n === 1).length >= bytes * 0.8, `chunk sizes: ${chunks.slice(0, 50).join(",")}…`);
  });

  test("many requests in flight on one connection, each answered to its caller", async () => {
    const ns = freshNamespace();
    const texts = Array.from({ length: 24 }, (_, i) => `fact number ${i}: the build takes ${i} minutes`);
    const stored = await Promise.all(texts.map((text) => client.store({ text, namespace: ns, type: "fact" })));
    const gets = stored.map(({ id }) => client.get(id));
    const mixed = await Promise.all([
      ...gets,
      client.ping(),
      client.stats(),
      client.query({ text: "build minutes", namespace: ns }),
    ]);
    const memories = mixed.slice(0, texts.length) as Memory[];
    assert.deepEqual(
      memories.map((m) => m.text),
      texts,
    );
    assert.ok(memories.every((m, i) => m.id === stored[i]!.id));
  });
});

describe("client with subscriptions", () => {
  let client: OmegadClient;

  before(() => {
    client = new OmegadClient({
      socketPath: daemon.socket,
      timeoutMs: 60_000,
      reconnectMinMs: 50,
      reconnectMaxMs: 200,
    });
  });
  after(() => client?.close());

  test("stored and contradiction events reach their subscription", async () => {
    const ns = freshNamespace();
    const other = freshNamespace();
    const events: OmegadEvent[] = [];
    const all: OmegadEvent[] = [];
    client.onEvent((e) => all.push(e));
    const sub = client.subscribe(["stored", "contradiction"], (e) => events.push(e), ns);
    await sub.ready;
    assert.equal(typeof sub.id, "number");
    await client.store({ text: "not for this subscription", namespace: other });
    const old = await client.store({ text: DARK, namespace: ns, type: "preference" });
    const newer = await client.store({ text: LIGHT, namespace: ns, type: "preference" });
    await client.flush();
    const contradiction = await eventually(() => events.find((e) => e.event === "contradiction"));
    assert.equal(contradiction.data.source, newer.id);
    assert.equal(contradiction.data.target, old.id);
    assert.equal((contradiction.data.new as { text: string }).text, LIGHT);
    const stored = events.filter((e) => e.event === "stored").map((e) => (e.data as unknown as Memory).text);
    assert.deepEqual(stored, [DARK, LIGHT]);
    assert.ok(events.every((e) => e.subscription === sub.id));
    assert.ok(all.length >= events.length);
    await sub.dispose();
    await client.store({ text: "after unsubscribing", namespace: ns });
    await client.flush();
    await client.ping();
    assert.ok(!events.some((e) => (e.data as { text?: string }).text === "after unsubscribing"));
  });

  test("a daemon restart: the call in flight fails, the next call reconnects, subscriptions come back by themselves", async () => {
    const ns = freshNamespace();
    const caller = daemon.client(); // no subscriptions: reconnects only when called
    const { id } = await caller.store({ text: "survives a restart", namespace: ns });
    await caller.flush();
    const changes: boolean[] = [];
    caller.onDidChangeConnection((c) => changes.push(c.connected));
    const events: OmegadEvent[] = [];
    const sub = client.subscribe(["stored", "deleted"], (e) => events.push(e), ns);
    await sub.ready;
    try {
      const inFlight = caller.flush(30).catch((err: unknown) => err);
      assert.equal(await daemon.stop(), 0, daemon.log());
      const err = await inFlight;
      // answered "shutting down" (unavailable), cut off (connection_lost), or done in time
      if (err instanceof OmegadError) assert.ok(["connection_lost", "unavailable"].includes(err.code), err.message);
      await rejectsWith(caller.ping(), "not_running");
      await eventually(() => (client.connected ? undefined : true));
      assert.equal(sub.id, null);
      await daemon.start();
      // the subscribed client reconnects and subscribes again without being called
      await eventually(() => (sub.id !== null ? true : undefined));
      assert.equal((await caller.get(id)).text, "survives a restart");
      assert.deepEqual(changes, [false, true]);
      const { id: fresh } = await caller.store({ text: "after the restart", namespace: ns });
      await caller.delete(fresh);
      const got = await eventually(() => (events.length >= 2 ? events : undefined));
      assert.deepEqual(
        got.map((e) => e.event),
        ["stored", "deleted"],
      );
      assert.equal((got[1]!.data as { id: string }).id, fresh);
    } finally {
      caller.close();
      await sub.dispose();
    }
  });
});

describe("client against fake servers", () => {
  test("replies in reverse order, with an event between them, split into 3-byte chunks", async (t) => {
    const pending: Array<Record<string, unknown>> = [];
    const fake = await fakeServer((msg, socket) => {
      pending.push(msg);
      if (pending.length < 5) return;
      const out = Buffer.concat([
        ...pending
          .slice()
          .reverse()
          .flatMap((m, i) => {
            const reply = frame({ id: m.id, ok: true, result: { echo: (m.params as { n: number }).n } });
            return i === 2 ? [reply, frame({ event: "stored", data: { id: "x" }, subscription: 99 })] : [reply];
          }),
      ]);
      void (async () => {
        for (let i = 0; i < out.length; i += 3) {
          socket.write(out.subarray(i, i + 3));
          await sleep(0);
        }
      })();
    });
    t.after(() => fake.close());
    const client = new OmegadClient({ socketPath: fake.path });
    t.after(() => client.close());
    const events: OmegadEvent[] = [];
    client.onEvent((e) => events.push(e));
    const results = await Promise.all([0, 1, 2, 3, 4].map((n) => client.call<{ echo: number }>("echo", { n })));
    assert.deepEqual(
      results.map((r) => r.echo),
      [0, 1, 2, 3, 4],
    );
    assert.deepEqual(events, [{ event: "stored", data: { id: "x" }, subscription: 99 }]);
    const ids = fake.received.map((m) => m.id);
    assert.equal(new Set(ids).size, ids.length, "ids unique among in-flight requests");
    assert.ok(fake.received.every((m) => m.v === 1 && typeof m.method === "string"));
  });

  test("a call that gets no reply times out, is cancelled, and the connection stays usable", async (t) => {
    const fake = await fakeServer((msg, socket) => {
      if (msg.method === "slow") {
        // answer much later: the client must ignore this late reply
        setTimeout(() => socket.write(frame({ id: msg.id, ok: true, result: { late: true } })), 400);
        return;
      }
      socket.write(frame({ id: msg.id, ok: true, result: { method: msg.method } }));
    });
    t.after(() => fake.close());
    const client = new OmegadClient({ socketPath: fake.path, timeoutMs: 5000 });
    t.after(() => client.close());
    const started = Date.now();
    await rejectsWith(client.call("slow", {}, { timeoutMs: 150 }), "timeout");
    assert.ok(Date.now() - started < 2000);
    const slowId = fake.received.find((m) => m.method === "slow")!.id;
    const cancel = await eventually(() => fake.received.find((m) => m.method === "cancel"));
    assert.deepEqual(cancel.params, { request_id: slowId });
    await sleep(500); // the late reply arrives and is dropped
    assert.deepEqual(await client.call("ping"), { method: "ping" });
    assert.equal(fake.connections, 1);
  });

  test("an error without an id fails every call in flight; the next call reconnects", async (t) => {
    let held = 0;
    const fake = await fakeServer((msg, socket, f) => {
      if (f.connections === 1) {
        held += 1;
        if (held === 2)
          socket.write(
            frame({
              id: null,
              ok: false,
              error: { code: "too_large", message: "frame too large", data: { limit: 10 } },
            }),
          );
        return;
      }
      socket.write(frame({ id: msg.id, ok: true, result: {} }));
    });
    t.after(() => fake.close());
    const client = new OmegadClient({ socketPath: fake.path });
    t.after(() => client.close());
    const a = rejectsWith(client.call("a"), "too_large");
    const b = rejectsWith(client.call("b"), "too_large");
    await Promise.all([a, b]);
    assert.deepEqual(await client.call("ping"), {});
    assert.equal(fake.connections, 2);
  });

  test("a frame over the client's cap or not msgpack drops the connection with a protocol error", async (t) => {
    const fake = await fakeServer((_msg, socket) => {
      socket.write(Buffer.from([0, 0, 0, 3, 0xc1, 0xc1, 0xc1]));
    });
    t.after(() => fake.close());
    const client = new OmegadClient({ socketPath: fake.path });
    t.after(() => client.close());
    await rejectsWith(client.call("ping"), "protocol");
    assert.equal(client.connected, false);
  });

  test("no daemon: not_running naming the socket; a closed client refuses reuse", async () => {
    const missing = path.join("/tmp", `omegad-missing-${process.pid}.sock`);
    const client = new OmegadClient({ socketPath: missing });
    const err = await rejectsWith(client.ping(), "not_running");
    assert.match(err.message, new RegExp(missing.replace(/[.]/g, "\\.")));
    assert.equal(err.data.socket, missing);
    client.close();
    assert.equal(client.state, "closed");
    await rejectsWith(client.ping(), "closed");
    assert.throws(
      () => client.subscribe(["stored"], () => undefined),
      (e: OmegadError) => e.code === "closed",
    );
  });

  test("a new socket path takes the subscriptions along; a refused subscription is dropped and reported", async (t) => {
    const numbers = new WeakMap<net.Socket, number>();
    const answer =
      (refuseDeleted: boolean) =>
      (msg: Record<string, unknown>, socket: net.Socket): void => {
        const topics = (msg.params as { topics?: string[] }).topics ?? [];
        if (msg.method === "subscribe" && refuseDeleted && topics.includes("deleted")) {
          socket.write(frame({ id: msg.id, ok: false, error: { code: "forbidden", message: "not for you" } }));
          return;
        }
        if (msg.method !== "subscribe") {
          socket.write(frame({ id: msg.id, ok: true, result: {} }));
          return;
        }
        const n = (numbers.get(socket) ?? 0) + 1;
        numbers.set(socket, n);
        socket.write(frame({ id: msg.id, ok: true, result: { subscription: n, topics } }));
        socket.write(frame({ event: topics[0], data: { id: "m" }, subscription: n }));
      };
    const a = await fakeServer(answer(false));
    const b = await fakeServer(answer(true));
    t.after(() => Promise.all([a.close(), b.close()]));
    const client = new OmegadClient({ socketPath: a.path, reconnectMinMs: 10 });
    t.after(() => client.close());
    const errors: unknown[] = [];
    client.onError((e) => errors.push(e));
    const seen: string[] = [];
    const stored = client.subscribe(["stored"], () => seen.push("stored"), "ns");
    const deleted = client.subscribe(["deleted"], () => seen.push("deleted"));
    await Promise.all([stored.ready, deleted.ready]);
    assert.deepEqual(
      a.received.map((m) => m.params),
      [{ topics: ["stored"], namespace: "ns" }, { topics: ["deleted"] }],
    );
    client.setSocketPath(b.path);
    await eventually(() => (errors.length === 1 && stored.id === 1 ? true : undefined));
    assert.equal((errors[0] as OmegadError).code, "forbidden");
    assert.equal(deleted.id, null);
    client.setSocketPath(a.path);
    await eventually(() => (a.received.length === 3 ? true : undefined));
    assert.deepEqual(a.received[2]!.params, { topics: ["stored"], namespace: "ns" });
    await sleep(50);
    assert.equal(a.received.length, 3, "the refused subscription is not tried again");
    // each subscription got the events of its own number on each connection
    assert.deepEqual(seen, ["stored", "deleted", "stored", "stored"]);
  });

  test("query context to a daemon from before it: the query runs again without it", async (t) => {
    const fake = await fakeServer((msg, socket) => {
      const params = msg.params as Record<string, unknown>;
      const reply =
        "context" in params
          ? {
              id: msg.id,
              ok: false,
              error: {
                code: "invalid_params",
                message: "params: unknown parameter(s) context",
                data: { unknown: ["context"] },
              },
            }
          : { id: msg.id, ok: true, result: { results: [] } };
      socket.write(frame(reply));
    });
    t.after(() => fake.close());
    const client = new OmegadClient({ socketPath: fake.path });
    t.after(() => client.close());
    assert.deepEqual(await client.query({ text: "q", context: { file: "a.py" } }), { results: [] });
    assert.deepEqual(
      fake.received.map((m) => Object.keys(m.params as object)),
      [["text", "context"], ["text"]],
    );
  });

  test("values the daemon would refuse never leave the client", async (t) => {
    const fake = await fakeServer(() => assert.fail("nothing should be sent"));
    t.after(() => fake.close());
    const client = new OmegadClient({ socketPath: fake.path });
    t.after(() => client.close());
    await rejectsWith(client.store({ text: "x", metadata: { when: new Date() as never } }), "bad_request");
    await rejectsWith(client.store({ text: "x".repeat(9 * 1024 * 1024) }), "too_large");
    assert.equal(fake.received.length, 0);
  });
});
