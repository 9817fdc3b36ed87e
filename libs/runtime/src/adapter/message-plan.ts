/**
 * What the message encoder knows about a message type (its fields in number order, each with its
 * tag and presence rule), built once per type, and how it reads a message's values: which fields
 * are set, map keys in the order written, unknown fields kept from decoding.
 */

import { ScalarType, type DescField, type DescMessage } from "@bufbuild/protobuf";

/** A value that cannot be encoded, named by the innermost field that holds it. */
export class EncodeError extends Error {
  override readonly name = "EncodeError";
}

// Wire types of the protobuf encoding.
export const Wire = { Varint: 0, Bit64: 1, Delimited: 2, StartGroup: 3, EndGroup: 4, Bit32: 5 } as const;
export type Wire = (typeof Wire)[keyof typeof Wire];

// Field presence as protobuf-es numbers it (google.protobuf.FeatureSet.FieldPresence).
export const IMPLICIT = 2;

export type Fields = Record<string, unknown>;

export interface FieldPlan {
  readonly field: DescField;
  readonly name: string;
  readonly oneof: string | undefined;
  readonly implicit: boolean;
  /** The tag of a singular value, or of each item of an unpacked list. */
  readonly tag: number;
  /** The scalar type of a scalar or enum value, list item or map value. */
  readonly scalar: ScalarType;
}

interface MessagePlan {
  readonly fields: readonly FieldPlan[];
}

const plans = new Map<DescMessage, MessagePlan>();

export function wireOf(scalar: ScalarType): Wire {
  switch (scalar) {
    case ScalarType.STRING:
    case ScalarType.BYTES:
      return Wire.Delimited;
    case ScalarType.DOUBLE:
    case ScalarType.FIXED64:
    case ScalarType.SFIXED64:
      return Wire.Bit64;
    case ScalarType.FLOAT:
    case ScalarType.FIXED32:
    case ScalarType.SFIXED32:
      return Wire.Bit32;
    default:
      return Wire.Varint;
  }
}

export function planOf(desc: DescMessage): MessagePlan {
  let plan = plans.get(desc);
  if (plan !== undefined) return plan;
  const fields = [...desc.fields]
    .sort((a, b) => a.number - b.number)
    .map((field): FieldPlan => {
      const scalar = "scalar" in field && field.scalar !== undefined ? field.scalar : ScalarType.INT32;
      let wire: Wire;
      if (field.fieldKind === "message") wire = field.delimitedEncoding ? Wire.StartGroup : Wire.Delimited;
      else if (field.fieldKind === "list" && field.listKind === "message")
        wire = field.delimitedEncoding ? Wire.StartGroup : Wire.Delimited;
      else if (field.fieldKind === "list" && field.packed) wire = Wire.Delimited;
      else if (field.fieldKind === "map") wire = Wire.Delimited;
      else wire = wireOf(scalar);
      return {
        field,
        name: field.localName,
        oneof: field.oneof?.localName,
        implicit: field.presence === IMPLICIT,
        tag: ((field.number << 3) | wire) >>> 0,
        scalar,
      };
    });
  plan = { fields };
  plans.set(desc, plan);
  return plan;
}

function isZero(scalar: ScalarType, value: unknown): boolean {
  switch (scalar) {
    case ScalarType.BOOL:
      return value === false;
    case ScalarType.STRING:
      return value === "";
    case ScalarType.BYTES:
      return (value as Uint8Array).byteLength === 0;
    case ScalarType.DOUBLE:
    case ScalarType.FLOAT:
      return Object.is(value, 0);
    default:
      return Number(value) === 0; // 0, 0n and "0" (protobuf-es compares with ==)
  }
}

// The value of a field that is set, or undefined when the field is not written.
export function setValue(plan: FieldPlan, msg: Fields): unknown {
  if (plan.oneof !== undefined) {
    const selected = msg[plan.oneof] as { case: string | undefined; value?: unknown } | undefined;
    return selected !== undefined && selected.case === plan.name ? selected.value : undefined;
  }
  const value = msg[plan.name];
  if (value === undefined) return undefined;
  const field = plan.field;
  if (field.fieldKind === "list") return (value as unknown[]).length > 0 ? value : undefined;
  if (field.fieldKind === "map") return Object.keys(value as Fields).length > 0 ? value : undefined;
  if (!plan.implicit) return Object.hasOwn(msg, plan.name) ? value : undefined;
  if (field.fieldKind === "enum") return value === field.enum.values[0]?.number ? undefined : value;
  return isZero(plan.scalar, value) ? undefined : value;
}

export function mapKeyOf(scalar: ScalarType, key: string): unknown {
  switch (scalar) {
    case ScalarType.STRING:
      return key;
    case ScalarType.BOOL:
      return key === "true";
    case ScalarType.INT64:
    case ScalarType.UINT64:
    case ScalarType.SINT64:
    case ScalarType.FIXED64:
    case ScalarType.SFIXED64:
      return BigInt(key);
    default:
      return Number(key);
  }
}

// Whether a key is an array index, which JavaScript objects enumerate first, in numeric order.
function isIndex(key: string): boolean {
  return /^(?:0|[1-9]\d{0,9})$/.test(key) && Number(key) < 4294967295;
}

// Key order as an object built from the sorted keys enumerates them (the order request
// fingerprints have always used): array indexes in numeric order, then the rest sorted.
function keyOrder(a: string, b: string): number {
  const ia = isIndex(a);
  const ib = isIndex(b);
  if (ia !== ib) return ia ? -1 : 1;
  if (ia) return Number(a) - Number(b);
  return a < b ? -1 : a > b ? 1 : 0;
}

export function mapKeys(map: Fields, sort: boolean): string[] {
  const keys = Object.keys(map);
  return sort ? keys.sort(keyOrder) : keys;
}

interface UnknownField {
  readonly no: number;
  readonly wireType: number;
  readonly data: Uint8Array;
}

const NONE: readonly UnknownField[] = [];

export function unknownOf(msg: Fields): readonly UnknownField[] {
  return (msg["$unknown"] as UnknownField[] | undefined) ?? NONE;
}
