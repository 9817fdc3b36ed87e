/**
 * Pass 1 of the message encoder: the size of a message. Every length-delimited part (nested
 * message, packed list, map entry, string) pushes its length onto `lengths` in the order the
 * writer will meet it; a message pushes a slot before its fields and fills it after, so its
 * fields' lengths follow it. Values out of their field's range are refused here, before a byte is written.
 */

import { ScalarType, type DescMessage } from "@bufbuild/protobuf";
import { EncodeError, mapKeyOf, mapKeys, planOf, setValue, unknownOf, type FieldPlan, type Fields } from "./message-plan.js";

export function varintSize(value: number): number {
  if (value < 0) return 10;
  if (value < 0x80) return 1;
  if (value < 0x4000) return 2;
  if (value < 0x200000) return 3;
  if (value < 0x10000000) return 4;
  return 5;
}

const FLOAT32_MAX = 3.4028234663852886e38;
const TWO_64 = 1n << 64n;
const INT64_MIN = -(1n << 63n);
const INT64_MAX = (1n << 63n) - 1n;

function bigintOf(value: unknown): bigint {
  return typeof value === "bigint" ? value : BigInt(value as string | number);
}

// The unsigned 64-bit pattern of a 64-bit integer field value; range-checked as protobuf-es does.
export function bits64(scalar: ScalarType, value: unknown): bigint {
  const v = bigintOf(value);
  if (scalar === ScalarType.UINT64 || scalar === ScalarType.FIXED64) {
    if (v < 0n || v >= TWO_64) throw new RangeError(`invalid uint64: ${String(value)}`);
    return v;
  }
  if (v < INT64_MIN || v > INT64_MAX) throw new RangeError(`invalid int64: ${String(value)}`);
  if (scalar === ScalarType.SINT64) return v >= 0n ? v << 1n : (-v << 1n) - 1n;
  return BigInt.asUintN(64, v);
}

function bigVarintSize(v: bigint): number {
  let n = 1;
  while (v >= 0x80n) {
    v >>= 7n;
    n++;
  }
  return n;
}

function assertInt32(value: unknown): number {
  if (typeof value !== "number" || !Number.isInteger(value) || value > 0x7fffffff || value < -0x80000000)
    throw new RangeError(`invalid int32: ${String(value)}`);
  return value;
}

function assertUint32(value: unknown): number {
  if (typeof value !== "number" || !Number.isInteger(value) || value > 0xffffffff || value < 0)
    throw new RangeError(`invalid uint32: ${String(value)}`);
  return value;
}

function scalarSize(scalar: ScalarType, value: unknown, lengths: number[]): number {
  switch (scalar) {
    case ScalarType.STRING: {
      const n = Buffer.byteLength(value as string, "utf8");
      lengths.push(n);
      return varintSize(n) + n;
    }
    case ScalarType.BYTES: {
      const n = (value as Uint8Array).byteLength;
      return varintSize(n) + n;
    }
    case ScalarType.BOOL:
      return 1;
    case ScalarType.DOUBLE:
      if (typeof value !== "number") throw new TypeError(`invalid double: ${String(value)}`);
      return 8;
    case ScalarType.FIXED64:
    case ScalarType.SFIXED64:
      bits64(scalar, value);
      return 8;
    case ScalarType.FLOAT:
      if (typeof value !== "number" || (Number.isFinite(value) && Math.abs(value) > FLOAT32_MAX))
        throw new RangeError(`invalid float32: ${String(value)}`);
      return 4;
    case ScalarType.FIXED32:
      assertUint32(value);
      return 4;
    case ScalarType.SFIXED32:
      assertInt32(value);
      return 4;
    case ScalarType.INT32:
      return varintSize(assertInt32(value));
    case ScalarType.UINT32:
      return varintSize(assertUint32(value));
    case ScalarType.SINT32: {
      const v = assertInt32(value);
      return varintSize(((v << 1) ^ (v >> 31)) >>> 0);
    }
    default:
      // INT64, UINT64, SINT64: small non-negative values need no bigint arithmetic.
      if (typeof value === "bigint" && value >= 0n && value < 0x10000000n && scalar !== ScalarType.SINT64) return varintSize(Number(value));
      return bigVarintSize(bits64(scalar, value));
  }
}

export function messageBodySize(desc: DescMessage, msg: Fields, lengths: number[], sort: boolean): number {
  let size = 0;
  // Index loops throughout: this recursion is not always optimized, and a for-of then allocates
  // an iterator and a result object per step.
  const fields = planOf(desc).fields;
  for (let i = 0; i < fields.length; i++) {
    const plan = fields[i] as FieldPlan;
    const value = setValue(plan, msg);
    if (value === undefined) continue;
    try {
      size += fieldSize(plan, value, lengths, sort);
    } catch (e) {
      if (e instanceof EncodeError) throw e;
      throw new EncodeError(`cannot encode field ${desc.typeName}.${plan.field.name} to binary: ${(e as Error).message}`, { cause: e });
    }
  }
  const unknown = unknownOf(msg);
  for (let i = 0; i < unknown.length; i++) {
    const u = unknown[i] as (typeof unknown)[number];
    size += varintSize(((u.no << 3) | u.wireType) >>> 0) + u.data.byteLength;
  }
  return size;
}

// A nested message: its length slot, then its fields' lengths.
function nestedSize(desc: DescMessage, msg: Fields, lengths: number[], sort: boolean, group: boolean, tag: number): number {
  if (group) return 2 * varintSize(tag) + messageBodySize(desc, msg, lengths, sort);
  const slot = lengths.length;
  lengths.push(0);
  const body = messageBodySize(desc, msg, lengths, sort);
  lengths[slot] = body;
  return varintSize(tag) + varintSize(body) + body;
}

function fieldSize(plan: FieldPlan, value: unknown, lengths: number[], sort: boolean): number {
  const field = plan.field;
  const tagSize = varintSize(plan.tag);
  switch (field.fieldKind) {
    case "scalar":
    case "enum":
      return tagSize + scalarSize(plan.scalar, value, lengths);
    case "message":
      return nestedSize(field.message, value as Fields, lengths, sort, field.delimitedEncoding, plan.tag);
    case "list": {
      const items = value as unknown[];
      let size = 0;
      if (field.listKind === "message") {
        for (let i = 0; i < items.length; i++)
          size += nestedSize(field.message, items[i] as Fields, lengths, sort, field.delimitedEncoding, plan.tag);
        return size;
      }
      if (field.packed) {
        const slot = lengths.length;
        lengths.push(0);
        for (let i = 0; i < items.length; i++) size += scalarSize(plan.scalar, items[i], lengths);
        lengths[slot] = size;
        return tagSize + varintSize(size) + size;
      }
      for (let i = 0; i < items.length; i++) size += tagSize + scalarSize(plan.scalar, items[i], lengths);
      return size;
    }
    case "map": {
      const map = value as Fields;
      let size = 0;
      const keys = mapKeys(map, sort);
      for (let i = 0; i < keys.length; i++) {
        const key = keys[i] as string;
        const slot = lengths.length;
        lengths.push(0);
        let entry = 1 + scalarSize(field.mapKey, mapKeyOf(field.mapKey, key), lengths);
        const v = map[key];
        entry +=
          field.mapKind === "message"
            ? nestedSize(field.message, v as Fields, lengths, sort, false, 0x12)
            : 1 + scalarSize(plan.scalar, v, lengths);
        lengths[slot] = entry;
        size += tagSize + varintSize(entry) + entry;
      }
      return size;
    }
  }
}
