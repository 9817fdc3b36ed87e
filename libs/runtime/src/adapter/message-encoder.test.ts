import { test } from "node:test";
import assert from "node:assert/strict";
import { readdirSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { ScalarType, create, fromBinary, toBinary, type DescField, type DescMessage } from "@bufbuild/protobuf";
import { ApplyRequestSchema } from "@crs/contracts/gen/crs/state/v1/state_pb";
import { encodeMessage } from "./message-encoder.js";
import { useBufferTextEncoding } from "./text-encoding.js";

// Every message type of the project's contracts.
const GEN = resolve(dirname(fileURLToPath(import.meta.url)), "../../../contracts/src/gen");
const schemas: DescMessage[] = [];
for (const file of readdirSync(GEN, { recursive: true, encoding: "utf8" })
  .filter((f) => f.endsWith("_pb.ts"))
  .sort()) {
  const module = (await import(pathToFileURL(join(GEN, file)).href)) as Record<string, unknown>;
  for (const value of Object.values(module))
    if (typeof value === "object" && value !== null && (value as { kind?: unknown }).kind === "message") schemas.push(value as DescMessage);
}
useBufferTextEncoding();

// A small seeded generator (mulberry32), so a failure names a seed that reproduces it.
function rng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const STRINGS = ["", "a", "b", "10", "9", "naïve", "日本語", "🚀", "lone \ud800", "\udc00", "x".repeat(200)];
const INT64S = [0n, 1n, -1n, 127n, 128n, 2n ** 28n, 2n ** 32n, 2n ** 62n, 2n ** 63n - 1n, -(2n ** 63n)];
const UINT64S = [0n, 1n, 127n, 128n, 2n ** 28n - 1n, 2n ** 28n, 2n ** 53n + 1n, 2n ** 64n - 1n];
const DOUBLES = [0, -0, 1.5, -2.25, NaN, Infinity, -Infinity, 1e300, 5e-324];

function scalarValue(type: ScalarType, r: () => number): unknown {
  const pick = <T>(xs: readonly T[]): T => xs[Math.floor(r() * xs.length)] as T;
  switch (type) {
    case ScalarType.STRING:
      return pick(STRINGS);
    case ScalarType.BYTES:
      return Uint8Array.from({ length: Math.floor(r() * 5) }, () => Math.floor(r() * 256));
    case ScalarType.BOOL:
      return r() < 0.5;
    case ScalarType.DOUBLE:
      return pick(DOUBLES);
    case ScalarType.FLOAT:
      return pick([0, -0, 1.5, Math.fround(0.1), NaN, Infinity]);
    case ScalarType.INT32:
    case ScalarType.SINT32:
    case ScalarType.SFIXED32:
      return pick([0, 1, -1, 127, 128, 2 ** 31 - 1, -(2 ** 31), 300]);
    case ScalarType.UINT32:
    case ScalarType.FIXED32:
      return pick([0, 1, 127, 128, 2 ** 32 - 1, 2 ** 28]);
    case ScalarType.UINT64:
    case ScalarType.FIXED64:
      return pick(UINT64S);
    default:
      return pick(INT64S);
  }
}

function enumValue(field: DescField & { fieldKind: "enum" }, r: () => number): number {
  const values = field.enum.values;
  return r() < 0.1 ? 99 : (values[Math.floor(r() * values.length)]?.number ?? 0);
}

function itemValue(field: DescField, r: () => number, depth: number): unknown {
  switch (field.fieldKind) {
    case "scalar":
      return scalarValue(field.scalar, r);
    case "enum":
      return enumValue(field, r);
    case "message":
      return randomInit(field.message, r, depth + 1);
    case "list":
      if (field.listKind === "message") return randomInit(field.message, r, depth + 1);
      if (field.listKind === "enum") return r() < 0.1 ? 99 : (field.enum.values[0]?.number ?? 0);
      return scalarValue(field.scalar, r);
    case "map":
      if (field.mapKind === "message") return randomInit(field.message, r, depth + 1);
      if (field.mapKind === "enum") return field.enum.values[Math.floor(r() * field.enum.values.length)]?.number ?? 0;
      return scalarValue(field.scalar, r);
  }
}

// A random init object: about half the fields set, lists and maps of 0-3 items, depth-limited.
function randomInit(desc: DescMessage, r: () => number, depth = 0): Record<string, unknown> {
  const init: Record<string, unknown> = {};
  if (depth > 3) return init;
  for (const field of desc.fields) {
    if (r() < 0.45) continue;
    if (field.oneof !== undefined) {
      init[field.oneof.localName] = { case: field.localName, value: itemValue(field, r, depth) };
      continue;
    }
    if (field.fieldKind === "list") init[field.localName] = Array.from({ length: Math.floor(r() * 4) }, () => itemValue(field, r, depth));
    else if (field.fieldKind === "map") {
      const map: Record<string, unknown> = {};
      for (let i = Math.floor(r() * 4); i > 0; i--) map[STRINGS[Math.floor(r() * 5)] as string] = itemValue(field, r, depth);
      init[field.localName] = map;
    } else init[field.localName] = itemValue(field, r, depth);
  }
  return init;
}

test("every message type of the contracts encodes to the bytes protobuf-es toBinary writes", () => {
  assert.ok(schemas.length > 100, `found ${schemas.length} message types`);
  let compared = 0;
  for (const [i, desc] of schemas.entries()) {
    for (let k = 0; k < 40; k++) {
      const seed = i * 1000 + k;
      const message = create(desc, randomInit(desc, rng(seed)) as never);
      let expected: Uint8Array;
      try {
        expected = toBinary(desc, message);
      } catch {
        assert.throws(() => encodeMessage(desc, message), `${desc.typeName} seed ${seed}: toBinary refused it`);
        continue;
      }
      assert.deepEqual(encodeMessage(desc, message), expected, `${desc.typeName} seed ${seed}`);
      compared++;
    }
  }
  assert.ok(compared > schemas.length * 30);
});

// The same init with every map, at any depth, built in key order.
function sortedInit(desc: DescMessage, init: Record<string, unknown>): Record<string, unknown> {
  const out: Record<string, unknown> = { ...init };
  const inner = (field: DescField, value: unknown): unknown => {
    if (field.fieldKind === "message") return sortedInit(field.message, value as Record<string, unknown>);
    if (field.fieldKind === "list" && field.listKind === "message")
      return (value as Record<string, unknown>[]).map((v) => sortedInit(field.message, v));
    if (field.fieldKind === "map") {
      const map = value as Record<string, unknown>;
      return Object.fromEntries(
        Object.keys(map)
          .sort()
          .map((k) => [k, field.mapKind === "message" ? sortedInit(field.message, map[k] as Record<string, unknown>) : map[k]]),
      );
    }
    return value;
  };
  for (const field of desc.fields) {
    if (field.oneof !== undefined) {
      const selected = out[field.oneof.localName] as { case: string; value: unknown } | undefined;
      if (selected?.case === field.localName) out[field.oneof.localName] = { case: selected.case, value: inner(field, selected.value) };
    } else if (out[field.localName] !== undefined) out[field.localName] = inner(field, out[field.localName]);
  }
  return out;
}

test("with sortMapKeys map entries go out in key order at any depth, as toBinary writes a copy built in that order", () => {
  let withMaps = 0;
  for (const [i, desc] of schemas.entries()) {
    for (let k = 0; k < 20; k++) {
      const init = randomInit(desc, rng(i * 1000 + k));
      const sorted = create(desc, sortedInit(desc, init) as never);
      let expected: Uint8Array;
      try {
        expected = toBinary(desc, sorted);
      } catch {
        continue;
      }
      const message = create(desc, init as never);
      const actual = encodeMessage(desc, message, { sortMapKeys: true });
      assert.deepEqual(actual, expected, `${desc.typeName} seed ${i * 1000 + k}`);
      if (toBinary(desc, message).some((b, j) => b !== actual[j])) withMaps++;
    }
  }
  assert.ok(withMaps > 10, `${withMaps} messages had maps out of key order`);
});

test("an init shape encodes to the bytes of the message create() builds from it", () => {
  let compared = 0;
  for (const [i, desc] of schemas.entries()) {
    for (let k = 0; k < 20; k++) {
      const init = randomInit(desc, rng(i * 1000 + k + 500));
      let expected: Uint8Array;
      try {
        expected = toBinary(desc, create(desc, init as never));
      } catch {
        continue;
      }
      assert.deepEqual(encodeMessage(desc, init), expected, `${desc.typeName} seed ${i * 1000 + k + 500}`);
      compared++;
    }
  }
  assert.ok(compared > schemas.length * 15);
});

test("unknown fields of a decoded message are written back after the known ones, as toBinary does", () => {
  const known = toBinary(ApplyRequestSchema, create(ApplyRequestSchema, { projectId: "p", label: "l" }));
  // Field 900 (varint 7) and field 901 (bytes "xy") are not in the contract.
  const unknown = Uint8Array.from([0xa0, 0x38, 0x07, 0xaa, 0x38, 0x02, 0x78, 0x79]);
  const decoded = fromBinary(ApplyRequestSchema, Uint8Array.from([...unknown, ...known]));
  assert.deepEqual(encodeMessage(ApplyRequestSchema, decoded), toBinary(ApplyRequestSchema, decoded));
});

test("a value out of its field's range is refused, not written wrapped", () => {
  const desc = schemas.find((d) =>
    d.fields.some((f) => f.fieldKind === "scalar" && f.scalar === ScalarType.INT32 && f.oneof === undefined),
  );
  assert.ok(desc !== undefined);
  const field = desc.fields.find((f) => f.fieldKind === "scalar" && f.scalar === ScalarType.INT32 && f.oneof === undefined) as DescField;
  const message = create(desc) as unknown as Record<string, unknown>;
  message[field.localName] = 2 ** 31;
  assert.throws(() => toBinary(desc, message as never));
  assert.throws(() => encodeMessage(desc, message), /invalid int32/);
});

test("the encoded bytes are a plain Uint8Array over exactly the message", () => {
  const bytes = encodeMessage(ApplyRequestSchema, create(ApplyRequestSchema, { projectId: "p" }));
  assert.equal(Object.getPrototypeOf(bytes), Uint8Array.prototype);
  assert.deepEqual(bytes, toBinary(ApplyRequestSchema, create(ApplyRequestSchema, { projectId: "p" })));
  assert.deepEqual(fromBinary(ApplyRequestSchema, bytes).projectId, "p");
});
