/**
 * The omegad wire protocol for this extension: constants, the value rules and framing.
 * docs/protocol.md is the authority; this module mirrors `client/omegad_client/protocol.py`.
 * Depends on @msgpack/msgpack only (no `vscode`, no sockets).
 *
 * Framing: a 4-byte big-endian unsigned length, then exactly that many bytes holding one
 * msgpack map. What we send follows the daemon's value rules: text as str (never bin), no
 * extension types, map keys str, integers as msgpack ints, finite floats, `undefined` map
 * values left out.
 */
import { Decoder, Encoder, ExtensionCodec } from "@msgpack/msgpack";
import { OmegadError, ProtocolError } from "./errors";

export const PROTOCOL_VERSION = 1;

/** Default cap on one frame's body, in bytes, on both sides (`server.max_frame_bytes`). */
export const DEFAULT_MAX_FRAME = 8 * 1024 * 1024;

export const HEADER_BYTES = 4;

/** Memory types the daemon accepts ("memory" is its default; "session" is for agents). */
export const MEMORY_TYPES = [
  "memory",
  "decision",
  "lesson",
  "preference",
  "fact",
  "error",
  "todo",
  "note",
  "session",
] as const;

export type MemoryType = (typeof MEMORY_TYPES)[number];

/** A value the daemon accepts: JSON-like, with `undefined` map values dropped on the wire. */
export type WireValue = null | boolean | number | string | WireValue[] | WireMap;
export interface WireMap {
  [key: string]: WireValue | undefined;
}

// No extension types either way: Dates must not become msgpack timestamps (ext -1), and an
// ext frame from the daemon is a protocol violation, not an opaque ExtData to pass around.
class NoExtensions extends ExtensionCodec {
  override tryToEncode(): null {
    return null;
  }

  override decode(_data: Uint8Array, type: number): never {
    throw new ProtocolError(`msgpack extension types are not allowed (got ext type ${type})`);
  }
}

const codec = new NoExtensions();
const encoder = new Encoder({ extensionCodec: codec, ignoreUndefined: true });
const decoder = new Decoder({
  extensionCodec: codec,
  mapKeyConverter: (key: unknown): string => {
    if (typeof key !== "string") throw new ProtocolError(`map keys must be str, got ${typeof key}`);
    return key;
  },
});

/**
 * Throws `OmegadError("bad_request")` naming the offending place when `value` cannot go on
 * the wire under the daemon's rules. @msgpack/msgpack would otherwise send a Uint8Array as bin,
 * a Map as an empty map, a Date as a timestamp ext (or an empty map) and NaN as a float.
 */
export function checkWireValue(value: unknown, where = "params"): void {
  const stack: Array<[unknown, string, number]> = [[value, where, 0]];
  while (stack.length > 0) {
    const [item, at, depth] = stack.pop()!;
    if (depth > 64) throw unencodable(at, "nested too deeply");
    if (item === null || item === undefined || typeof item === "boolean" || typeof item === "string") continue;
    if (typeof item === "number") {
      if (!Number.isFinite(item)) throw unencodable(at, `${item} is not a finite number`);
      continue;
    }
    if (Array.isArray(item)) {
      item.forEach((v, i) => stack.push([v, `${at}[${i}]`, depth + 1]));
      continue;
    }
    if (typeof item === "object") {
      const proto = Object.getPrototypeOf(item);
      if (proto !== Object.prototype && proto !== null) {
        const kind = (item as object).constructor?.name ?? "object";
        throw unencodable(at, `a ${kind} is not allowed (JSON-like values only; times as ISO strings)`);
      }
      for (const [k, v] of Object.entries(item)) stack.push([v, `${at}.${k}`, depth + 1]);
      continue;
    }
    throw unencodable(at, `a ${typeof item} is not allowed (JSON-like values only)`);
  }
}

function unencodable(at: string, why: string): OmegadError {
  return new OmegadError("bad_request", `cannot encode ${at}: ${why}`, { param: at });
}

/** One message as a complete frame (header + body). Throws `OmegadError` (`bad_request`,
 * `too_large`) for a message that breaks the value rules or the frame cap. */
export function encodeFrame(message: WireMap, maxFrame = DEFAULT_MAX_FRAME): Buffer {
  checkWireValue(message, "message");
  const body = encoder.encode(message);
  if (body.byteLength > maxFrame) {
    throw new OmegadError("too_large", `frame of ${body.byteLength} bytes exceeds the limit of ${maxFrame}`, {
      limit: maxFrame,
    });
  }
  const frame = Buffer.allocUnsafe(HEADER_BYTES + body.byteLength);
  frame.writeUInt32BE(body.byteLength, 0);
  frame.set(body, HEADER_BYTES);
  return frame;
}

/** Decodes one frame body; it must be exactly one msgpack map. */
export function decodeBody(body: Uint8Array): Record<string, unknown> {
  let value: unknown;
  try {
    value = decoder.decode(body);
  } catch (err) {
    if (err instanceof ProtocolError) throw err;
    throw new ProtocolError(`body is not valid msgpack: ${(err as Error).message}`);
  }
  if (typeof value !== "object" || value === null || Array.isArray(value) || ArrayBuffer.isView(value)) {
    throw new ProtocolError("the daemon sent a frame that is not a map");
  }
  return value as Record<string, unknown>;
}

/**
 * Turns a byte stream into messages, whatever the chunking: a frame split at any byte, or
 * several frames in one chunk. A frame announcing more than `maxFrame` bytes, or a body that
 * is not a msgpack map, throws `ProtocolError` (the connection is then unusable).
 */
export class FrameDecoder {
  private readonly header = Buffer.alloc(HEADER_BYTES);
  private headerFill = 0;
  private body: Buffer | null = null;
  private bodyFill = 0;

  constructor(private readonly maxFrame = DEFAULT_MAX_FRAME) {}

  /** Feeds bytes; calls `onMessage` for every message they complete, in order. */
  push(chunk: Uint8Array, onMessage: (message: Record<string, unknown>) => void): void {
    const bytes = Buffer.isBuffer(chunk) ? chunk : Buffer.from(chunk.buffer, chunk.byteOffset, chunk.byteLength);
    let offset = 0;
    while (offset < bytes.length) {
      if (this.body === null) {
        const n = Math.min(HEADER_BYTES - this.headerFill, bytes.length - offset);
        bytes.copy(this.header, this.headerFill, offset, offset + n);
        this.headerFill += n;
        offset += n;
        if (this.headerFill < HEADER_BYTES) return;
        this.headerFill = 0;
        const length = this.header.readUInt32BE(0);
        if (length > this.maxFrame) {
          throw new ProtocolError(`daemon sent a frame of ${length} bytes (limit ${this.maxFrame})`);
        }
        if (length === 0) throw new ProtocolError("daemon sent an empty frame (a frame holds one msgpack map)");
        this.body = Buffer.allocUnsafe(length);
        this.bodyFill = 0;
      }
      const n = Math.min(this.body.length - this.bodyFill, bytes.length - offset);
      bytes.copy(this.body, this.bodyFill, offset, offset + n);
      this.bodyFill += n;
      offset += n;
      if (this.bodyFill === this.body.length) {
        const body = this.body;
        this.body = null;
        onMessage(decodeBody(body));
      }
    }
  }

  /** True between frames (nothing partial buffered). */
  get idle(): boolean {
    return this.body === null && this.headerFill === 0;
  }
}
