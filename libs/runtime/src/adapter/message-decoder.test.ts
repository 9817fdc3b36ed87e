import { spawnSync } from "node:child_process";
import { fileURLToPath } from "node:url";
import { test } from "node:test";
import assert from "node:assert/strict";
import { create, fromBinary, toBinary, type DescMessage } from "@bufbuild/protobuf";
import * as wkt from "@bufbuild/protobuf/wkt";
import { BinaryWriter, WireType } from "@bufbuild/protobuf/wire";
import { ApplyRequestSchema } from "@crs/contracts/gen/crs/state/v1/state_pb";
import { DeltaSchema } from "@crs/contracts/gen/crs/state/v1/delta_pb";
import { decodeMessage } from "./message-decoder.js";
import { useBufferTextEncoding } from "./text-encoding.js";
import { randomInit, rng, schemas } from "../testing/random-messages.js";
import { damaged, reshaped } from "../testing/wire-variants.js";
import { ScalarsSchema, specialSchemas } from "../testing/scalar-types.js";

useBufferTextEncoding();

// The well-known types too: Struct, Value and Any as protobuf-es reads them, and the proto2 types
// of descriptor.proto, which the decoder leaves to fromBinary; and every scalar type and the
// fields protobuf-es reads into special shapes, which the contracts do not use.
const wellKnown = (Object.values(wkt) as unknown[]).filter(
  (v): v is DescMessage => typeof v === "object" && v !== null && (v as { kind?: unknown }).kind === "message",
);
const all = [...schemas, ...wellKnown, ScalarsSchema, ...specialSchemas];

// Encoded random messages of every type: a Buffer each, as grpc-js hands requests over.
function* samples(perType: number, salt: number): Generator<{ desc: DescMessage; bytes: Buffer; seed: number }> {
  for (const [i, desc] of all.entries()) {
    for (let k = 0; k < perType; k++) {
      const seed = i * 1000 + k + salt;
      let bytes: Uint8Array;
      try {
        bytes = toBinary(desc, create(desc, randomInit(desc, rng(seed)) as never));
      } catch {
        continue; // an init the generator got wrong for this type (a map key out of range)
      }
      yield { desc, bytes: Buffer.from(bytes), seed };
    }
  }
}

/** Asserts the decoder returns what fromBinary returns, or throws when it throws; says which. */
function decodesAsFromBinary(desc: DescMessage, bytes: Uint8Array, label: string): "equal" | "refused" {
  let expected: unknown;
  try {
    expected = fromBinary(desc, bytes);
  } catch (e) {
    assert.throws(() => decodeMessage(desc, bytes), `${label}: fromBinary refused it (${(e as Error).message}), the decoder did not`);
    return "refused";
  }
  assert.deepEqual(decodeMessage(desc, bytes), expected, label);
  return "equal";
}

test("every message type of the contracts decodes to the message fromBinary returns", () => {
  assert.ok(schemas.length > 100, `found ${schemas.length} message types`);
  let compared = 0;
  for (const { desc, bytes, seed } of samples(40, 0)) {
    assert.equal(decodesAsFromBinary(desc, bytes, `${desc.typeName} seed ${seed}`), "equal");
    compared++;
  }
  assert.ok(compared > all.length * 30, `${compared} compared`);
});

test("fields out of order, sent twice, unknown fields and packed lists sent unpacked decode as fromBinary reads them", () => {
  let changed = 0;
  for (const { desc, bytes, seed } of samples(20, 500)) {
    for (let v = 0; v < 3; v++) {
      const variant = Buffer.from(reshaped(desc, bytes, rng(seed * 7 + v)));
      assert.equal(decodesAsFromBinary(desc, variant, `${desc.typeName} seed ${seed} variant ${v}`), "equal");
      if (!variant.equals(bytes)) changed++;
    }
  }
  assert.ok(changed > all.length * 20, `${changed} reshaped encodings differed from toBinary's`);
});

test("truncated or corrupted bytes throw where fromBinary throws, and otherwise decode to its message", () => {
  const outcomes = { equal: 0, refused: 0 };
  for (const { desc, bytes, seed } of samples(20, 900)) {
    for (let v = 0; v < 4; v++) {
      const r = rng(seed * 11 + v);
      const source = v % 2 === 0 ? bytes : reshaped(desc, bytes, r);
      outcomes[decodesAsFromBinary(desc, Buffer.from(damaged(source, r)), `${desc.typeName} seed ${seed} damage ${v}`)]++;
    }
  }
  assert.ok(outcomes.refused > 1000 && outcomes.equal > 1000, `outcomes ${JSON.stringify(outcomes)}`);
});

test("a scalar sent twice keeps the last value, a message sent twice merges and a repeated entry appends", () => {
  const first = toBinary(
    ApplyRequestSchema,
    create(ApplyRequestSchema, { projectId: "a", options: { requestId: "r1" }, metadata: { k: "1" } }),
  );
  const second = toBinary(
    ApplyRequestSchema,
    create(ApplyRequestSchema, { projectId: "b", options: { expectedProjectUid: "u" }, metadata: { k: "2", j: "3" } }),
  );
  const bytes = Buffer.concat([first, second]);
  const decoded = decodeMessage(ApplyRequestSchema, bytes) as ReturnType<typeof create<typeof ApplyRequestSchema>>;
  assert.equal(decoded.projectId, "b");
  assert.equal(decoded.options?.requestId, "r1");
  assert.equal(decoded.options?.expectedProjectUid, "u");
  assert.deepEqual(decoded.metadata, { k: "2", j: "3" });
  assert.deepEqual(decoded, fromBinary(ApplyRequestSchema, bytes));
});

test("a string that is not valid UTF-8 is refused, as fromBinary refuses it", () => {
  const bytes = Uint8Array.of(0x0a, 0x02, 0xc3, 0x28);
  assert.throws(() => fromBinary(ApplyRequestSchema, bytes));
  assert.throws(() => decodeMessage(ApplyRequestSchema, bytes));
});

test("a non-ASCII string and one starting with a byte-order mark decode as fromBinary decodes them", () => {
  for (const text of ["naïve", "日本語", "🚀", "\ufeffmarked", "x".repeat(100) + "é", "a".repeat(64), "a".repeat(65)]) {
    const bytes = Buffer.concat([Uint8Array.of(0x0a, Buffer.byteLength(text)), Buffer.from(text)]);
    assert.equal(decodesAsFromBinary(ApplyRequestSchema, bytes, JSON.stringify(text)), "equal");
  }
});

test("ASCII strings of every length up to the scan limit, in a Buffer or a plain Uint8Array, decode as fromBinary decodes them", () => {
  for (let n = 0; n <= 70; n++) {
    const text = Array.from({ length: n }, (_, i) => String.fromCharCode(0x20 + ((i * 7) % 95))).join("");
    const bytes = Buffer.concat([Uint8Array.of(0x0a, n), Buffer.from(text)]);
    assert.equal(decodesAsFromBinary(ApplyRequestSchema, bytes, `Buffer, length ${n}`), "equal");
    assert.equal(decodesAsFromBinary(ApplyRequestSchema, new Uint8Array(bytes), `Uint8Array, length ${n}`), "equal");
  }
});

// A delta nested `levels` composites deep: each level is two messages (Delta, CompositeDelta).
function nestedDelta(levels: number): Uint8Array {
  let inner = new Uint8Array(0);
  for (let i = 0; i < levels; i++) {
    const composite = new BinaryWriter().tag(1, WireType.LengthDelimited).bytes(inner).finish();
    inner = new BinaryWriter().tag(16, WireType.LengthDelimited).bytes(composite).finish();
  }
  return inner;
}

test("messages nested deeper than protobuf-es's limit of 100 are refused, and up to it decode", () => {
  assert.equal(decodesAsFromBinary(DeltaSchema, nestedDelta(49), "99 deep"), "equal");
  assert.equal(decodesAsFromBinary(DeltaSchema, nestedDelta(50), "101 deep"), "refused");
  assert.equal(decodesAsFromBinary(DeltaSchema, nestedDelta(60), "121 deep"), "refused");
});

test("a length that runs past the end of the request is refused", () => {
  const bytes = Uint8Array.of(0x12, 0x10, 0x08, 0x01);
  assert.equal(decodesAsFromBinary(ApplyRequestSchema, bytes, "delta of 16 bytes in 2"), "refused");
});

test("a bool sent as a varint with only bits above the 32nd set reads true, as fromBinary reads it", () => {
  const no = ScalarsSchema.fields.find((f) => f.localName === "sBool")?.number as number;
  const bytes = new BinaryWriter()
    .tag(no, WireType.Varint)
    .uint64(1n << 35n)
    .finish();
  const decoded = decodeMessage(ScalarsSchema, bytes);
  assert.equal(decoded["sBool"], true);
  assert.deepEqual(decoded, fromBinary(ScalarsSchema, bytes));
});

test("a varint longer than ten bytes is refused, as fromBinary refuses it", () => {
  const no = ScalarsSchema.fields.find((f) => f.localName === "sUint32")?.number as number;
  const tag = new BinaryWriter().tag(no, WireType.Varint).finish();
  const bytes = Buffer.concat([tag, Buffer.alloc(10, 0xff), Uint8Array.of(0x01)]);
  assert.equal(decodesAsFromBinary(ScalarsSchema, bytes, "eleven-byte varint"), "refused");
});

test("requests still decode, to what fromBinary makes, where code generation from strings is disallowed", () => {
  // The flag is process-wide, so a child process decodes under it.
  const script = `
    import assert from "node:assert/strict";
    import { create, fromBinary, toBinary } from "@bufbuild/protobuf";
    import { ApplyRequestSchema } from "@crs/contracts/gen/crs/state/v1/state_pb";
    import { decodeMessage } from ${JSON.stringify(new URL("./message-decoder.ts", import.meta.url).href)};
    const bytes = toBinary(ApplyRequestSchema, create(ApplyRequestSchema, {
      projectId: "p", delta: { kind: { case: "similarity", value: { updates: [{ a: "x", b: "y", distance: 0.5 }] } } },
    }));
    assert.deepStrictEqual(decodeMessage(ApplyRequestSchema, bytes), fromBinary(ApplyRequestSchema, bytes));
    assert.deepStrictEqual(decodeMessage(ApplyRequestSchema, new Uint8Array(0)), fromBinary(ApplyRequestSchema, new Uint8Array(0)));
  `;
  const child = spawnSync(
    process.execPath,
    ["--disallow-code-generation-from-strings", "--import", "tsx", "--input-type=module", "-e", script],
    { cwd: fileURLToPath(new URL(".", import.meta.url)), encoding: "utf8" },
  );
  assert.equal(child.status, 0, child.stderr);
});
