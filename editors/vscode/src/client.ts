/**
 * An omegad client on Node's `net`: one Unix socket connection, several requests in flight
 * (replies matched by id, in any order), event frames routed to subscriptions, a timeout per
 * call, and reconnection: after the daemon restarts, the next call opens a new connection and
 * every live subscription is re-established on it (in the background too, while any exist).
 * No `vscode` here.
 *
 * States, as in the Python client: `unopened` (no connection: the next call connects; also
 * after a lost connection), `opened`, `closed` (`close()` was called: calls reject with
 * `ClientClosed`).
 */
import * as net from "node:net";
import {
  CallTimeout,
  ClientClosed,
  ConnectionLost,
  DaemonNotRunning,
  OmegadError,
  ProtocolError,
  errorFromReply,
} from "./errors";
import { DEFAULT_MAX_FRAME, FrameDecoder, PROTOCOL_VERSION, encodeFrame, type WireMap } from "./protocol";
import type {
  Edge,
  FeedbackResult,
  Hello,
  ListPage,
  Memory,
  Metadata,
  NamespaceInfo,
  OmegadEvent,
  QueryContext,
  QueryHit,
  Resolution,
  Stats,
  StoreResult,
  Topic,
} from "./types";

export type ClientState = "unopened" | "opened" | "closed";

/** Milliseconds a call may take before it fails with `CallTimeout` (and is cancelled). */
export const DEFAULT_TIMEOUT_MS = 30_000;
/** Background reconnection (only while subscriptions exist): the first delay, growing by half
 * each failed attempt up to the max (a restarting daemon is back within a few attempts; an
 * attempt is one failed connect on a Unix socket). */
export const RECONNECT_MIN_MS = 250;
export const RECONNECT_MAX_MS = 15_000;

export interface ClientOptions {
  socketPath: string;
  timeoutMs?: number;
  maxFrame?: number;
  reconnectMinMs?: number;
  reconnectMaxMs?: number;
}

export interface CallOptions {
  timeoutMs?: number;
}

export interface Disposable {
  dispose(): void;
}

/** A minimal event emitter; listeners that throw are reported to `onError`, never to the emitter. */
export class Emitter<T> {
  private readonly listeners = new Set<(value: T) => void>();

  constructor(private readonly onError: (err: unknown) => void = () => undefined) {}

  readonly event = (listener: (value: T) => void): Disposable => {
    this.listeners.add(listener);
    return { dispose: () => this.listeners.delete(listener) };
  };

  fire(value: T): void {
    for (const listener of [...this.listeners]) {
      try {
        listener(value);
      } catch (err) {
        this.onError(err);
      }
    }
  }
}

export interface ConnectionChange {
  connected: boolean;
  /** Why the connection ended (absent when it opened, or when `close()` ended it). */
  error?: OmegadError;
}

/** One subscription; it lives until disposed and is re-established on every new connection. */
export interface Subscription {
  readonly topics: readonly Topic[];
  readonly namespace: string | undefined;
  /** The daemon's number for it on the current connection; null while not established. */
  readonly id: number | null;
  /** Settles with the first attempt to establish it (rejects when the daemon is not running
   * or refuses it; a refused subscription is dropped, an unreachable one retried). */
  readonly ready: Promise<void>;
  dispose(): Promise<void>;
}

interface Pending {
  method: string;
  resolve: (result: unknown) => void;
  reject: (err: OmegadError) => void;
  timer: NodeJS.Timeout | undefined;
}

class Connection {
  readonly decoder: FrameDecoder;
  readonly pending = new Map<number, Pending>();
  closed = false;

  constructor(
    readonly socket: net.Socket,
    maxFrame: number,
  ) {
    this.decoder = new FrameDecoder(maxFrame);
  }
}

class Sub implements Subscription {
  id: number | null = null;
  conn: Connection | null = null; // where `id` is valid
  attempt: { conn: Connection; done: Promise<void> } | null = null;
  ready: Promise<void> = Promise.resolve();

  constructor(
    private readonly client: OmegadClient,
    readonly topics: readonly Topic[],
    readonly namespace: string | undefined,
    readonly handler: (event: OmegadEvent) => void,
  ) {}

  dispose(): Promise<void> {
    return this.client.unsubscribe(this);
  }
}

/** Answers to `subscribe` that mean "never": the subscription is dropped (and reported). Any
 * other failure (the connection, a timeout, `unavailable`) is retried on the next connection. */
const SUBSCRIBE_REFUSALS = new Set(["unknown_method", "invalid_params", "forbidden", "bad_request"]);

export class OmegadClient {
  state: ClientState = "unopened";
  private socketPathValue: string;
  private readonly timeoutMs: number;
  private readonly maxFrame: number;
  private readonly reconnectMinMs: number;
  private readonly reconnectMaxMs: number;
  private conn: Connection | null = null;
  private connecting: Promise<Connection> | null = null;
  private nextId = 1;
  private readonly subs = new Set<Sub>();
  private reconnectTimer: NodeJS.Timeout | undefined;
  private reconnectDelay: number;

  private readonly errors = new Emitter<unknown>();
  /** Failures nobody awaits: a refused re-subscription, a listener that threw. */
  readonly onError = this.errors.event;
  private readonly connections = new Emitter<ConnectionChange>((err) => this.errors.fire(err));
  readonly onDidChangeConnection = this.connections.event;
  private readonly events = new Emitter<OmegadEvent>((err) => this.errors.fire(err));
  /** Every event frame, whichever subscription it belongs to. */
  readonly onEvent = this.events.event;

  constructor(options: ClientOptions) {
    this.socketPathValue = options.socketPath;
    this.timeoutMs = options.timeoutMs ?? DEFAULT_TIMEOUT_MS;
    this.maxFrame = options.maxFrame ?? DEFAULT_MAX_FRAME;
    this.reconnectMinMs = options.reconnectMinMs ?? RECONNECT_MIN_MS;
    this.reconnectMaxMs = options.reconnectMaxMs ?? RECONNECT_MAX_MS;
    this.reconnectDelay = this.reconnectMinMs;
  }

  get socketPath(): string {
    return this.socketPathValue;
  }

  /** Points the client at another socket; the current connection ends and the next call (or
   * the background reconnection, for subscriptions) opens the new one. */
  setSocketPath(path: string): void {
    if (path === this.socketPathValue) return;
    this.socketPathValue = path;
    if (this.conn) this.drop(this.conn, new ConnectionLost("the socket path changed"));
  }

  get connected(): boolean {
    return this.conn !== null;
  }

  // -- calls -------------------------------------------------------------------------------

  /** Sends one request and resolves with its `result` (rejects with an `OmegadError`). */
  async call<T = unknown>(method: string, params: WireMap = {}, options: CallOptions = {}): Promise<T> {
    if (this.state === "closed") throw new ClientClosed();
    const conn = await this.connect();
    return (await this.callOn(conn, method, params, options.timeoutMs ?? this.timeoutMs)) as T;
  }

  private callOn(
    conn: Connection,
    method: string,
    params: WireMap,
    timeoutMs: number,
    onResult?: (result: unknown) => void,
  ): Promise<unknown> {
    return new Promise((resolve, reject) => {
      if (conn.closed) {
        reject(new ConnectionLost("the connection to the daemon was lost"));
        return;
      }
      const id = this.allocateId(conn);
      const frame = encodeFrame({ v: PROTOCOL_VERSION, id, method, params }, this.maxFrame);
      const pending: Pending = {
        method,
        // Runs synchronously as the reply is dispatched, so a subscription knows its number
        // before the event frames that may follow its reply in the same chunk.
        resolve: (result) => {
          onResult?.(result);
          resolve(result);
        },
        reject,
        timer: undefined,
      };
      if (timeoutMs > 0 && Number.isFinite(timeoutMs)) {
        pending.timer = setTimeout(() => {
          if (conn.pending.get(id) !== pending) return;
          conn.pending.delete(id);
          reject(new CallTimeout(method, timeoutMs));
          this.sendCancel(conn, id);
        }, timeoutMs);
      }
      conn.pending.set(id, pending);
      conn.socket.write(frame);
    });
  }

  private allocateId(conn: Connection): number {
    // Ids stay small positive ints (msgpack uint32) and unique among in-flight requests.
    do {
      this.nextId = this.nextId >= 0x7fffffff ? 1 : this.nextId + 1;
    } while (conn.pending.has(this.nextId));
    return this.nextId;
  }

  /** Best effort: the daemon stops work nobody waits for; its reply is ignored. */
  private sendCancel(conn: Connection, requestId: number): void {
    if (conn.closed) return;
    try {
      const id = this.allocateId(conn);
      conn.socket.write(encodeFrame({ v: PROTOCOL_VERSION, id, method: "cancel", params: { request_id: requestId } }));
    } catch {
      // the connection is going away anyway
    }
  }

  // -- connection ----------------------------------------------------------------------------

  private connect(): Promise<Connection> {
    if (this.state === "closed") return Promise.reject(new ClientClosed());
    if (this.conn) return Promise.resolve(this.conn);
    if (!this.connecting) {
      this.connecting = this.open().finally(() => {
        this.connecting = null;
      });
      this.connecting.catch(() => {
        if (this.subs.size > 0) this.scheduleReconnect();
      });
    }
    return this.connecting;
  }

  private open(): Promise<Connection> {
    const path = this.socketPathValue;
    return new Promise((resolve, reject) => {
      const socket = net.createConnection({ path });
      const refused = (err: NodeJS.ErrnoException): void => {
        socket.destroy();
        reject(new DaemonNotRunning(path, describeConnectError(err)));
      };
      socket.once("error", refused);
      socket.once("connect", () => {
        socket.off("error", refused);
        if (this.state === "closed" || path !== this.socketPathValue) {
          socket.destroy();
          reject(this.state === "closed" ? new ClientClosed() : new ConnectionLost("the socket path changed"));
          return;
        }
        const conn = new Connection(socket, this.maxFrame);
        socket.on("data", (chunk: Buffer) => this.receive(conn, chunk));
        socket.on("error", (err) =>
          this.drop(conn, new ConnectionLost(`connection to the daemon failed: ${err.message}`)),
        );
        socket.on("close", () => this.drop(conn, new ConnectionLost("the daemon closed the connection")));
        this.conn = conn;
        this.state = "opened";
        this.reconnectDelay = this.reconnectMinMs;
        clearTimeout(this.reconnectTimer);
        this.reconnectTimer = undefined;
        for (const sub of this.subs) this.establish(conn, sub).catch(() => undefined);
        this.connections.fire({ connected: true });
        resolve(conn);
      });
    });
  }

  /** Ends a connection: its in-flight calls fail with `error`, subscriptions wait for the next. */
  private drop(conn: Connection, error: OmegadError): void {
    if (conn.closed) return;
    conn.closed = true;
    conn.socket.destroy();
    if (this.conn === conn) {
      this.conn = null;
      if (this.state !== "closed") this.state = "unopened";
    }
    for (const pending of conn.pending.values()) {
      clearTimeout(pending.timer);
      pending.reject(error);
    }
    conn.pending.clear();
    for (const sub of this.subs) {
      if (sub.conn === conn) {
        sub.conn = null;
        sub.id = null;
      }
    }
    if (this.state === "closed") return;
    this.connections.fire({ connected: false, error });
    if (this.subs.size > 0) this.scheduleReconnect();
  }

  private scheduleReconnect(): void {
    if (this.reconnectTimer !== undefined || this.state === "closed" || this.subs.size === 0) return;
    const delay = this.reconnectDelay;
    this.reconnectDelay = Math.min(this.reconnectDelay * 1.5, this.reconnectMaxMs);
    this.reconnectTimer = setTimeout(() => {
      this.reconnectTimer = undefined;
      this.connect().catch(() => undefined); // a failure schedules the next attempt
    }, delay);
    this.reconnectTimer.unref();
  }

  private receive(conn: Connection, chunk: Buffer): void {
    try {
      conn.decoder.push(chunk, (message) => this.dispatch(conn, message));
    } catch (err) {
      this.drop(conn, err instanceof OmegadError ? err : new ProtocolError(String(err)));
    }
  }

  private dispatch(conn: Connection, message: Record<string, unknown>): void {
    if (!("id" in message)) {
      if (typeof message.event === "string") this.deliver(conn, message as unknown as OmegadEvent);
      return; // a frame with neither id nor event: nothing to do with it
    }
    const id = message.id;
    if (id === null) {
      // The daemon could not tell which request this answers (an undecodable or oversized
      // frame) and may close the connection after it: fail everything in flight on it.
      this.drop(conn, message.ok === false ? errorFromReply(message.error) : new ProtocolError("reply with a nil id"));
      return;
    }
    const pending = typeof id === "number" ? conn.pending.get(id) : undefined;
    if (!pending) return; // a late reply to a call that timed out, or to a cancel
    conn.pending.delete(id as number);
    clearTimeout(pending.timer);
    if (message.ok === true) pending.resolve(message.result);
    else if (message.ok === false) pending.reject(errorFromReply(message.error));
    else pending.reject(new ProtocolError(`reply to '${pending.method}' without a boolean 'ok'`));
  }

  private deliver(conn: Connection, event: OmegadEvent): void {
    for (const sub of this.subs) {
      if (sub.conn === conn && sub.id === event.subscription) {
        try {
          sub.handler(event);
        } catch (err) {
          this.errors.fire(err);
        }
      }
    }
    this.events.fire(event);
  }

  // -- subscriptions -------------------------------------------------------------------------

  /**
   * Pushes events of `topics` (for `namespace`, or every readable namespace) to `handler`
   * until the subscription is disposed, across reconnections. Returns at once; `ready`
   * settles with the first attempt.
   */
  subscribe(topics: readonly Topic[], handler: (event: OmegadEvent) => void, namespace?: string): Subscription {
    if (this.state === "closed") throw new ClientClosed();
    const sub = new Sub(this, [...topics], namespace, handler);
    this.subs.add(sub);
    sub.ready = this.connect().then((conn) => this.establish(conn, sub));
    sub.ready.catch(() => undefined); // also reported through `ready` to whoever awaits it
    return sub;
  }

  private establish(conn: Connection, sub: Sub): Promise<void> {
    if (sub.conn === conn && sub.id !== null) return Promise.resolve();
    if (sub.attempt?.conn === conn) return sub.attempt.done;
    const params: WireMap = { topics: [...sub.topics], namespace: sub.namespace };
    const done = this.callOn(conn, "subscribe", params, this.timeoutMs, (result) => {
      sub.conn = conn;
      sub.id = (result as { subscription: number }).subscription;
    }).then(
      () => undefined,
      (err: OmegadError) => {
        if (SUBSCRIBE_REFUSALS.has(err.code)) {
          this.subs.delete(sub);
          this.errors.fire(err);
        }
        throw err;
      },
    );
    sub.attempt = { conn, done };
    done
      .catch(() => undefined)
      .finally(() => {
        if (sub.attempt?.done === done) sub.attempt = null;
      });
    return done;
  }

  /** @internal `Subscription.dispose()`. */
  async unsubscribe(sub: Sub): Promise<void> {
    if (!this.subs.delete(sub)) return;
    if (this.subs.size === 0) {
      clearTimeout(this.reconnectTimer);
      this.reconnectTimer = undefined;
    }
    const { conn, id } = sub;
    sub.conn = null;
    sub.id = null;
    if (conn && id !== null && !conn.closed && this.state !== "closed") {
      try {
        await this.callOn(conn, "unsubscribe", { subscription: id }, this.timeoutMs);
      } catch (err) {
        if (!(err instanceof OmegadError)) throw err; // gone already: the connection ended it
      }
    }
  }

  /** Ends the client for good: in-flight calls fail with `ClientClosed`. */
  close(): void {
    if (this.state === "closed") return;
    this.state = "closed";
    clearTimeout(this.reconnectTimer);
    this.reconnectTimer = undefined;
    this.subs.clear();
    if (this.conn) this.drop(this.conn, new ClientClosed());
  }

  // -- methods (docs/protocol.md "Methods") --------------------------------------------------

  hello(): Promise<Hello> {
    return this.call("hello");
  }

  ping(options?: CallOptions): Promise<Record<string, never>> {
    return this.call("ping", {}, options);
  }

  store(params: {
    text: string;
    type?: string;
    tags?: string[];
    namespace?: string;
    metadata?: Metadata;
    created_at?: string;
    id?: string;
  }): Promise<StoreResult> {
    return this.call("store", params as WireMap);
  }

  get(id: string): Promise<Memory> {
    return this.call("get", { id });
  }

  update(params: { id: string; text?: string; type?: string; tags?: string[]; metadata?: Metadata }): Promise<Memory> {
    return this.call("update", params as WireMap);
  }

  delete(id: string): Promise<{ deleted: boolean }> {
    return this.call("delete", { id });
  }

  /**
   * Recall. `context` (where the caller works) boosts memories written there; a daemon from
   * before `context` refuses it as an unknown parameter, and then the query runs without it.
   */
  async query(params: {
    text: string;
    limit?: number;
    namespace?: string;
    types?: string[];
    tags?: string[];
    since?: string;
    until?: string;
    rerank?: boolean;
    explain?: boolean;
    include_hidden?: boolean;
    context?: QueryContext;
  }): Promise<{ results: QueryHit[]; trace?: unknown[] }> {
    try {
      return await this.call("query", params as WireMap);
    } catch (err) {
      const unknown = err instanceof OmegadError && err.code === "invalid_params" ? err.data.unknown : undefined;
      if (params.context && Array.isArray(unknown) && unknown.includes("context")) {
        const { context: _ignored, ...rest } = params;
        return await this.call("query", rest as WireMap);
      }
      throw err;
    }
  }

  list(params: {
    namespace?: string;
    types?: string[];
    tags?: string[];
    since?: string;
    until?: string;
    order?: "newest" | "oldest";
    cursor?: string;
    limit?: number;
    include_hidden?: boolean;
  }): Promise<ListPage> {
    return this.call("list", params as WireMap);
  }

  async namespaces(): Promise<NamespaceInfo[]> {
    const result = await this.call<{ namespaces: NamespaceInfo[] }>("namespaces");
    return result.namespaces;
  }

  stats(): Promise<Stats> {
    return this.call("stats");
  }

  flush(timeout?: number): Promise<{ waited_ms: number }> {
    return this.call("flush", { timeout });
  }

  async contradictions(params: { namespace?: string; id?: string; limit?: number }): Promise<Edge[]> {
    const result = await this.call<{ contradictions: Edge[] }>("contradictions", params as WireMap);
    return result.contradictions;
  }

  resolve(source: string, target: string, resolution: Resolution): Promise<Edge> {
    return this.call("resolve", { source, target, resolution });
  }

  unresolve(source: string, target: string): Promise<Edge> {
    return this.call("unresolve", { source, target });
  }

  feedback(id: string, score: number): Promise<FeedbackResult> {
    return this.call("feedback", { id, score });
  }
}

function describeConnectError(err: NodeJS.ErrnoException): string {
  switch (err.code) {
    case "ENOENT":
      return "no socket";
    case "ECONNREFUSED":
      return "a stale socket file: nobody listens";
    case "EACCES":
      return "permission denied";
    default:
      return err.message;
  }
}
