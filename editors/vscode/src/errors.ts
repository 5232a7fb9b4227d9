/**
 * The client's one exception tree, as in the Python client (`omegad_client._errors`).
 * Catch `OmegadError` to catch everything; switch on `code`, never on messages.
 *
 * ```
 * OmegadError            every error the client raises; .code, .message, .data
 *  ├─ DaemonNotRunning   nothing listens at the socket path ("not_running")
 *  ├─ ConnectionLost     the connection broke while the call was in flight ("connection_lost")
 *  ├─ ProtocolError      the daemon sent something that breaks the wire rules ("protocol")
 *  ├─ ClientClosed       the client was closed and cannot be reused ("closed")
 *  └─ CallTimeout        no reply within the call's timeout ("timeout", like the daemon's own)
 * ```
 * Errors the daemon answers with are plain `OmegadError`s carrying the daemon's code
 * (`invalid_params`, `not_found`, `unavailable`, ...: docs/protocol.md "Error codes").
 */

export type ErrorData = Record<string, unknown>;

export class OmegadError extends Error {
  readonly code: string;
  readonly data: ErrorData;

  constructor(code: string, message: string, data: ErrorData = {}) {
    super(message);
    this.name = "OmegadError";
    this.code = code;
    this.data = data;
  }

  override toString(): string {
    return `[${this.code}] ${this.message}`;
  }
}

export class DaemonNotRunning extends OmegadError {
  readonly path: string;

  constructor(path: string, reason = "") {
    const detail = reason ? ` (${reason})` : "";
    super("not_running", `omegad daemon not running at ${path}${detail}; start it with \`omegad serve\``, {
      socket: path,
      reason,
    });
    this.name = "DaemonNotRunning";
    this.path = path;
  }
}

export class ConnectionLost extends OmegadError {
  constructor(message: string) {
    super("connection_lost", message);
    this.name = "ConnectionLost";
  }
}

export class ProtocolError extends OmegadError {
  constructor(message: string) {
    super("protocol", message);
    this.name = "ProtocolError";
  }
}

export class ClientClosed extends OmegadError {
  constructor() {
    super("closed", "this client was closed; create a new one");
    this.name = "ClientClosed";
  }
}

export class CallTimeout extends OmegadError {
  constructor(method: string, timeoutMs: number) {
    super("timeout", `no reply to '${method}' within ${timeoutMs / 1000} s`);
    this.name = "CallTimeout";
  }
}

/** The `error` map of a reply as an `OmegadError` (a malformed one is a `ProtocolError`). */
export function errorFromReply(error: unknown): OmegadError {
  if (typeof error !== "object" || error === null || Array.isArray(error)) {
    return new ProtocolError(`malformed error in reply: ${JSON.stringify(error)}`);
  }
  const { code, message, data } = error as { code?: unknown; message?: unknown; data?: unknown };
  if (typeof code !== "string" || typeof message !== "string") {
    return new ProtocolError(`malformed error in reply: ${JSON.stringify(error)}`);
  }
  const payload = typeof data === "object" && data !== null && !Array.isArray(data) ? (data as ErrorData) : {};
  return new OmegadError(code, message, payload);
}
