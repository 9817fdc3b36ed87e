import { test } from "node:test";
import assert from "node:assert/strict";
import { ScalarType, create, fromBinary, toBinary, type DescField, type DescMessage } from "@bufbuild/protobuf";
import { ApplyRequestSchema } from "@crs/contracts/gen/crs/state/v1/state_pb";
import { encodeMessage } from "./message-encoder.js";
import { useBufferTextEncoding } from "./text-encoding.js";
import { randomInit, rng, schemas } from "../testing/random-messages.js";

useBufferTextEncoding();

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
