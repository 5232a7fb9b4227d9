/** Framing and the value rules, without a daemon (plus a cross-check against Python's decoder). */
import { strict as assert } from "node:assert";
import { describe, test } from "node:test";
import { encode } from "@msgpack/msgpack";
import { OmegadError } from "../src/errors";
import { FrameDecoder, checkWireValue, decodeBody, encodeFrame } from "../src/protocol";
import { python } from "./helpers/daemon";

function frameOf(body: Uint8Array): Buffer {
  const out = Buffer.alloc(4 + body.length);
  out.writeUInt32BE(body.length, 0);
  out.set(body, 4);
  return out;
}

const messages = [
  { id: 1, ok: true, result: { text: "héllo ✓", n: 3, f: 0.5, nested: { list: [1, "two", null, true] } } },
  { event: "stored", data: { id: "m1" }, subscription: 7 },
  { id: 2, ok: false, error: { code: "not_found", message: "no memory m9" } },
];

describe("FrameDecoder", () => {
  const stream = Buffer.concat(messages.map((m) => frameOf(encode(m))));

  test("byte at a time", () => {
    const decoder = new FrameDecoder();
    const got: unknown[] = [];
    for (let i = 0; i < stream.length; i++) decoder.push(stream.subarray(i, i + 1), (m) => got.push(m));
    assert.deepEqual(got, messages);
    assert.ok(decoder.idle);
  });

  test("split at every byte boundary, and all at once", () => {
    for (let cut = 0; cut <= stream.length; cut++) {
      const decoder = new FrameDecoder();
      const got: unknown[] = [];
      decoder.push(stream.subarray(0, cut), (m) => got.push(m));
      decoder.push(stream.subarray(cut), (m) => got.push(m));
      assert.deepEqual(got, messages, `cut at ${cut}`);
    }
  });

  test("a frame over the cap fails before its body arrives", () => {
    const decoder = new FrameDecoder(1024);
    const header = Buffer.alloc(4);
    header.writeUInt32BE(1025, 0);
    assert.throws(
      () => decoder.push(header, () => undefined),
      (err: OmegadError) => err.code === "protocol",
    );
  });

  test("bodies that are not one msgpack map are protocol errors", () => {
    for (const body of [encode([1, 2]), encode("text"), Buffer.from([0xc1]), Buffer.concat([encode({}), encode({})])]) {
      assert.throws(
        () => decodeBody(body),
        (err: OmegadError) => err.code === "protocol",
      );
    }
    const empty = Buffer.alloc(4);
    assert.throws(
      () => new FrameDecoder().push(empty, () => undefined),
      (err: OmegadError) => err.code === "protocol",
    );
  });

  test("extension types from the daemon are refused", () => {
    // {"t": timestamp ext -1}
    const body = Buffer.from([0x81, 0xa1, 0x74, 0xd6, 0xff, 0, 0, 0, 1]);
    assert.throws(() => decodeBody(body), /extension types/);
  });

  test("non-str map keys are refused", () => {
    assert.throws(() => decodeBody(Buffer.from([0x81, 0x01, 0x02])), /map keys must be str/);
  });
});

describe("value rules", () => {
  test("undefined map values are left out; integers stay msgpack ints; floats are floats", () => {
    const frame = encodeFrame({
      v: 1,
      id: 5,
      method: "store",
      params: { text: "x", type: undefined, metadata: { line: 3, f: 1.5 } },
    });
    const body = frame.subarray(4);
    assert.equal(frame.readUInt32BE(0), body.length);
    const decoded = decodeBody(body) as { params: Record<string, unknown> };
    assert.deepEqual(Object.keys(decoded.params), ["text", "metadata"]);
    // "line" then positive fixint 3; "f" then float64 0xcb
    assert.ok(body.includes(Buffer.from([0xa4, ...Buffer.from("line"), 0x03])));
    assert.ok(body.includes(Buffer.from([0xa1, 0x66, 0xcb])));
  });

  test("what Python's decoder makes of our frames: str, int, float, bool, nil, list, map", () => {
    const frame = encodeFrame({
      v: 1,
      id: 2 ** 31 - 1,
      method: "store",
      params: { text: "é ✓ 😀", n: -42, big: 2 ** 40, f: 0.25, b: false, nil: null, list: [1, "a"], m: { k: "v" } },
    });
    const out = python(
      [
        "import sys, json",
        "from omegad_client.protocol import decode_body",
        "body = bytes.fromhex(sys.stdin.read())[4:]",
        "msg = decode_body(body)",
        "p = msg['params']",
        "print(json.dumps({k: type(v).__name__ for k, v in p.items()} | {'id': type(msg['id']).__name__, 'text': p['text']}))",
      ].join("\n"),
      frame.toString("hex"),
    );
    assert.deepEqual(JSON.parse(out), {
      text: "é ✓ 😀",
      n: "int",
      big: "int",
      f: "float",
      b: "bool",
      nil: "NoneType",
      list: "list",
      m: "dict",
      id: "int",
    });
  });

  test("values the daemon refuses are refused before sending, naming the place", () => {
    const bad: Array<[unknown, RegExp]> = [
      [new Date(0), /Date is not allowed/],
      [new Uint8Array([1]), /Uint8Array is not allowed/],
      [Buffer.from("x"), /Buffer is not allowed/],
      [new Map([["a", 1]]), /Map is not allowed/],
      [Number.NaN, /not a finite number/],
      [Number.POSITIVE_INFINITY, /not a finite number/],
      [10n, /bigint is not allowed/],
      [() => 1, /function is not allowed/],
    ];
    for (const [value, why] of bad) {
      assert.throws(
        () => checkWireValue({ metadata: { deep: [value] } }),
        (err: OmegadError) =>
          err.code === "bad_request" && why.test(err.message) && err.data.param === "params.metadata.deep[0]",
        String(value),
      );
    }
  });

  test("a frame over the cap is too_large", () => {
    assert.throws(
      () => encodeFrame({ v: 1, id: 1, method: "store", params: { text: "x".repeat(2000) } }, 1000),
      (err: OmegadError) => err.code === "too_large",
    );
  });
});
