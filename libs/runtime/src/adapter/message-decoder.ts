/**
 * Binary decoding of protobuf-es messages: the message `fromBinary` returns, at a fraction of its
 * cost. `fromBinary` wraps every message it builds in a reflection object, looks each field up in
 * a Map, allocates an array per tag and per 64-bit varint and decodes every string through
 * TextDecoder; this decoder walks a per-type plan (fields by number, the zero message) built once
 * and writes values straight into plain message objects. It reads exactly as `fromBinary` does,
 * including what it tolerates (a field's wire type is not checked against its type; a length may
 * overrun its parent) and what it refuses, so malformed input fails here when it fails there.
 * Types that need protobuf-es's reflection (see decode-plan.ts) are handed to `fromBinary`.
 */

import { fromBinary, type DescMessage } from "@bufbuild/protobuf";
import {
  DecodeError,
  Kind,
  decodePlanOf,
  nestedPlanOf,
  fieldOf,
  scalarZero,
  zeroMessage,
  type DecodePlan,
  type FieldDecoder,
} from "./decode-plan.js";
import { Reader } from "./message-reader.js";
import { Wire, type Fields } from "./message-plan.js";

export { DecodeError };

// protobuf-es's default nesting limit.
const RECURSION_LIMIT = 100;

interface UnknownField {
  readonly no: number;
  readonly wireType: number;
  readonly data: Uint8Array;
}

interface OneofValue {
  readonly case: string | undefined;
  readonly value?: unknown;
}

/**
 * The message of type `desc` that `bytes` encode: what `fromBinary(desc, bytes)` returns, bytes
 * fields and unknown fields as views of `bytes`. Throws where `fromBinary` throws.
 */
export function decodeMessage(desc: DescMessage, bytes: Uint8Array): Fields {
  const plan = decodePlanOf(desc);
  if (plan.reflective) return fromBinary(desc, bytes) as unknown as Fields;
  const msg = zeroMessage(plan);
  readMessage(new Reader(bytes), plan, msg, bytes.length, 1);
  return msg;
}

// Reads `length` bytes of fields into `msg` (a zero message, or one read earlier to merge into).
function readMessage(reader: Reader, plan: DecodePlan, msg: Fields, length: number, depth: number): void {
  if (depth > RECURSION_LIMIT)
    throw new DecodeError(`cannot decode ${String(msg["$typeName"])} from binary: maximum recursion depth of ${RECURSION_LIMIT} reached`);
  const end = reader.pos + length;
  let unknown = msg["$unknown"] as UnknownField[] | undefined;
  while (reader.pos < end) {
    reader.tag();
    const fieldNo = reader.fieldNo;
    const wireType = reader.wireType;
    const field = fieldOf(plan, fieldNo);
    if (field === undefined) {
      const data = reader.skip(wireType, fieldNo, RECURSION_LIMIT - depth);
      if (unknown === undefined) unknown = [];
      unknown.push({ no: fieldNo, wireType, data });
      continue;
    }
    readField(reader, field, wireType, msg, depth);
  }
  if (unknown !== undefined && unknown.length > 0) msg["$unknown"] = unknown;
}

function set(field: FieldDecoder, msg: Fields, value: unknown): void {
  if (field.oneof === undefined) msg[field.name] = value;
  else msg[field.oneof] = { case: field.name, value };
}

// A nested message: a repeated singular field merges into the message read before it.
function readNested(reader: Reader, field: FieldDecoder, existing: Fields | undefined, depth: number): Fields {
  const plan = nestedPlanOf(field);
  const msg = existing ?? zeroMessage(plan);
  readMessage(reader, plan, msg, reader.uint32(), depth + 1);
  return msg;
}

function readField(reader: Reader, field: FieldDecoder, wireType: number, msg: Fields, depth: number): void {
  switch (field.kind) {
    case Kind.Scalar:
      set(field, msg, reader.scalar(field.scalar, field.strict));
      return;
    case Kind.Message: {
      let existing: Fields | undefined;
      if (field.oneof === undefined) existing = msg[field.name] as Fields | undefined;
      else {
        const selected = msg[field.oneof] as OneofValue;
        if (selected.case === field.name) existing = selected.value as Fields;
      }
      set(field, msg, readNested(reader, field, existing, depth));
      return;
    }
    case Kind.MessageList:
      (msg[field.name] as unknown[]).push(readNested(reader, field, undefined, depth));
      return;
    case Kind.ScalarList: {
      const list = msg[field.name] as unknown[];
      if (wireType !== Wire.Delimited || !field.packable) {
        list.push(reader.scalar(field.scalar, field.strict));
        return;
      }
      const end = reader.uint32() + reader.pos;
      while (reader.pos < end) list.push(reader.scalar(field.scalar, field.strict));
      return;
    }
    case Kind.Map:
      readMapEntry(reader, field, msg[field.name] as Fields, depth);
      return;
  }
}

// One map entry: key is field 1, value field 2; as in protobuf-es, other numbers are not skipped.
function readMapEntry(reader: Reader, field: FieldDecoder, map: Fields, depth: number): void {
  const end = reader.uint32() + reader.pos;
  let key: unknown;
  let value: unknown;
  while (reader.pos < end) {
    reader.tag();
    if (reader.fieldNo === 1) key = reader.scalar(field.mapKey, field.strict);
    else if (reader.fieldNo === 2)
      value = field.message === undefined ? reader.scalar(field.scalar, field.strict) : readNested(reader, field, undefined, depth);
  }
  if (key === undefined) key = scalarZero(field.mapKey);
  if (value === undefined)
    value = field.message !== undefined ? zeroMessage(nestedPlanOf(field)) : (field.enumZero ?? scalarZero(field.scalar));
  map[typeof key === "string" || typeof key === "number" ? key : String(key)] = value;
}
