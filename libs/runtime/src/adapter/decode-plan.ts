/**
 * What the message decoder knows about a message type, built once per type: its fields by number
 * with what each reads and where it stores the value, the zero message `create` would build, and
 * whether the type (or one it contains) needs protobuf-es's own reading.
 */

import { ScalarType, type DescField, type DescMessage } from "@bufbuild/protobuf";
import { isWrapperDesc } from "@bufbuild/protobuf/wkt";

/** Bytes that are not a valid encoding of the message type being read. */
export class DecodeError extends Error {
  override readonly name = "DecodeError";
}

export type Fields = Record<string, unknown>;

// google.protobuf.Edition.EDITION_PROTO3, and FeatureSet.FieldPresence.IMPLICIT.
const EDITION_PROTO3 = 999;
const IMPLICIT = 2;

// What a field reads and how the value is stored.
export const Kind = { Scalar: 0, Message: 1, ScalarList: 2, MessageList: 3, Map: 4 } as const;
export type Kind = (typeof Kind)[keyof typeof Kind];

export interface FieldDecoder {
  readonly kind: Kind;
  readonly name: string;
  readonly oneof: string | undefined;
  /** The scalar type of a scalar or enum value, list item or map value (enums read as int32). */
  readonly scalar: ScalarType;
  /** Whether strings of this field must be valid UTF-8. */
  readonly strict: boolean;
  /** Whether a list item arriving length-delimited is a packed run (every scalar but string and bytes). */
  readonly packable: boolean;
  /** The message type of a message field, list item or map value. */
  readonly message: DescMessage | undefined;
  readonly mapKey: ScalarType;
  /** The zero of an enum value: its first value. */
  readonly enumZero: number | undefined;
}

export interface DecodePlan {
  /** True when the type needs protobuf-es's reading: see {@link needsReflection}. */
  readonly reflective: boolean;
  /** Field decoders by field number, for numbers below {@link DENSE_LIMIT}. */
  readonly dense: readonly (FieldDecoder | undefined)[];
  readonly sparse: ReadonlyMap<number, FieldDecoder>;
  /** `$typeName` and the zero of every immutable member, in `create`'s member order. */
  readonly template: Fields;
  /** Members whose zero is a fresh object per message: lists, maps, oneofs and bytes. */
  readonly fresh: readonly { readonly name: string; readonly zero: () => unknown }[];
}

const DENSE_LIMIT = 64;

const plans = new Map<DescMessage, DecodePlan>();

/** The field decoder of `fieldNo` in `plan`, or undefined for a field the type does not know. */
export function fieldOf(plan: DecodePlan, fieldNo: number): FieldDecoder | undefined {
  return fieldNo < DENSE_LIMIT ? plan.dense[fieldNo] : plan.sparse.get(fieldNo);
}

/** The message `create(desc)` builds: every member at its zero, fields with explicit presence absent. */
export function zeroMessage(plan: DecodePlan): Fields {
  const msg = { ...plan.template };
  for (const member of plan.fresh) msg[member.name] = member.zero();
  return msg;
}

export function scalarZero(scalar: ScalarType): unknown {
  switch (scalar) {
    case ScalarType.STRING:
      return "";
    case ScalarType.BOOL:
      return false;
    case ScalarType.BYTES:
      return new Uint8Array(0);
    case ScalarType.INT64:
    case ScalarType.UINT64:
    case ScalarType.SINT64:
    case ScalarType.FIXED64:
    case ScalarType.SFIXED64:
      return 0n;
    default:
      return 0;
  }
}

const NONE = () => undefined;
const LIST = () => [];
const MAP = () => ({});
const ONEOF = () => ({ case: undefined });
const BYTES = () => new Uint8Array(0);

function decoderOf(field: DescField): FieldDecoder {
  const scalar = "scalar" in field && field.scalar !== undefined ? field.scalar : ScalarType.INT32;
  const base = {
    name: field.localName,
    oneof: field.oneof?.localName,
    scalar,
    strict: field.utf8Validation,
    packable: scalar !== ScalarType.STRING && scalar !== ScalarType.BYTES,
    message: field.message,
    mapKey: field.fieldKind === "map" ? field.mapKey : ScalarType.STRING,
    enumZero: field.enum?.values[0]?.number,
  };
  switch (field.fieldKind) {
    case "scalar":
    case "enum":
      return { ...base, kind: Kind.Scalar };
    case "message":
      return { ...base, kind: Kind.Message };
    case "list":
      return { ...base, kind: field.listKind === "message" ? Kind.MessageList : Kind.ScalarList };
    case "map":
      return { ...base, kind: Kind.Map };
  }
}

function buildPlan(desc: DescMessage): DecodePlan {
  const dense: (FieldDecoder | undefined)[] = new Array(DENSE_LIMIT).fill(undefined);
  const sparse = new Map<number, FieldDecoder>();
  for (const field of desc.fields) {
    const decoder = decoderOf(field);
    if (field.number < DENSE_LIMIT) dense[field.number] = decoder;
    else sparse.set(field.number, decoder);
  }
  const template: Fields = { $typeName: desc.typeName };
  const fresh: { name: string; zero: () => unknown }[] = [];
  for (const member of desc.members) {
    let zero: () => unknown = NONE;
    if (member.kind === "oneof") zero = ONEOF;
    else if (member.fieldKind === "list") zero = LIST;
    else if (member.fieldKind === "map") zero = MAP;
    else if (member.fieldKind === "message" || member.presence !== IMPLICIT) continue;
    else if (member.fieldKind === "enum") template[member.localName] = member.enum.values[0]?.number;
    else if (member.scalar === ScalarType.BYTES) zero = BYTES;
    else template[member.localName] = scalarZero(member.scalar);
    if (zero !== NONE) {
      template[member.localName] = undefined; // keeps create's property order
      fresh.push({ name: member.localName, zero });
    }
  }
  return { reflective: needsReflection(desc, new Set()), dense, sparse, template, fresh };
}

/** The decode plan of `desc`, built on first use. */
export function decodePlanOf(desc: DescMessage): DecodePlan {
  let plan = plans.get(desc);
  if (plan === undefined) {
    plan = buildPlan(desc);
    plans.set(desc, plan);
  }
  return plan;
}

/**
 * Whether reading `desc` takes more than the wire and `create`'s zero values: proto2 and editions
 * types (defaults on a prototype chain, closed enums, groups), 64-bit fields read as strings,
 * wrapper fields read as their bare value and Struct fields read as JSON objects. None of the
 * contracts' types do; those that do are left to `fromBinary`.
 */
function needsReflection(desc: DescMessage, seen: Set<DescMessage>): boolean {
  if (seen.has(desc)) return false;
  seen.add(desc);
  if (desc.file.edition !== EDITION_PROTO3) return true;
  for (const field of desc.fields) {
    if ("longAsString" in field && field.longAsString) return true;
    if (field.enum !== undefined && !field.enum.open) return true;
    const message = field.message;
    if (message === undefined) continue;
    if (field.fieldKind === "message" && field.oneof === undefined && isWrapperDesc(message)) return true;
    if (message.typeName === "google.protobuf.Struct" && desc.typeName !== "google.protobuf.Value") return true;
    if (needsReflection(message, seen)) return true;
  }
  return false;
}
