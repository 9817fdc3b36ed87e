/**
 * What the message decoder knows about a message type, built once per type: its fields by number
 * with what each reads and where it stores the value, the zero message `create` would build, and
 * whether the type (or one it contains) needs protobuf-es's own reading.
 */

import { ScalarType, protoInt64, type DescField, type DescMessage } from "@bufbuild/protobuf";
import { isWrapperDesc } from "@bufbuild/protobuf/wkt";
import { IMPLICIT, type Fields } from "./message-plan.js";

/** Bytes that are not a valid encoding of the message type being read. */
export class DecodeError extends Error {
  override readonly name = "DecodeError";
}

// google.protobuf.Edition.EDITION_PROTO3.
const EDITION_PROTO3 = 999;

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
  /** The decode plan of `message`, set on first use (types may be recursive). */
  nested: DecodePlan | undefined;
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
  /** Builds the zero message. */
  readonly zero: () => Fields;
}

const DENSE_LIMIT = 64;

const plans = new Map<DescMessage, DecodePlan>();

/** The field decoder of `fieldNo` in `plan`, or undefined for a field the type does not know. */
export function fieldOf(plan: DecodePlan, fieldNo: number): FieldDecoder | undefined {
  return fieldNo < DENSE_LIMIT ? plan.dense[fieldNo] : plan.sparse.get(fieldNo);
}

/** The decode plan of the message type of a message field, list item or map value. */
export function nestedPlanOf(field: FieldDecoder): DecodePlan {
  if (field.nested === undefined) field.nested = decodePlanOf(field.message as DescMessage);
  return field.nested;
}

/** The message `create(desc)` builds: every member at its zero, fields with explicit presence absent. */
export function zeroMessage(plan: DecodePlan): Fields {
  return plan.zero();
}

/** The zero value of a scalar type, as create() sets it. */
export function scalarZero(scalar: ScalarType): unknown {
  return scalarZeroOf(scalar).make();
}

function decoderOf(field: DescField): FieldDecoder {
  const scalar = "scalar" in field && field.scalar !== undefined ? field.scalar : ScalarType.INT32;
  const base = {
    name: field.localName,
    oneof: field.oneof?.localName,
    scalar,
    strict: field.utf8Validation,
    packable: scalar !== ScalarType.STRING && scalar !== ScalarType.BYTES,
    message: field.message,
    nested: undefined,
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
  // Without BigInt support (or with it disabled) protobuf-es reads 64-bit integers as strings.
  const reflective = !protoInt64.supported || needsReflection(desc, new Set());
  return { reflective, dense, sparse, zero: zeroFactory(desc) };
}

// A member's zero value, as source text and as a function making it; undefined for a member
// create() leaves absent.
interface Zero {
  readonly source: string;
  readonly make: () => unknown;
}

const ZEROES = {
  oneof: { source: "{ case: undefined }", make: () => ({ case: undefined }) },
  list: { source: "[]", make: () => [] },
  map: { source: "{}", make: () => ({}) },
  string: { source: '""', make: () => "" },
  bool: { source: "false", make: () => false },
  bytes: { source: "new Uint8Array(0)", make: () => new Uint8Array(0) },
  bigint: { source: "0n", make: () => 0n },
  number: { source: "0", make: () => 0 },
} satisfies Record<string, Zero>;

function zeroOf(member: DescMessage["members"][number]): Zero | undefined {
  if (member.kind === "oneof") return ZEROES.oneof;
  if (member.fieldKind === "list") return ZEROES.list;
  if (member.fieldKind === "map") return ZEROES.map;
  if (member.fieldKind === "message" || member.presence !== IMPLICIT) return undefined;
  if (member.fieldKind === "enum") {
    const value = member.enum.values[0]?.number ?? 0;
    return { source: String(value), make: () => value };
  }
  return scalarZeroOf(member.scalar);
}

function scalarZeroOf(scalar: ScalarType): Zero {
  switch (scalar) {
    case ScalarType.STRING:
      return ZEROES.string;
    case ScalarType.BOOL:
      return ZEROES.bool;
    case ScalarType.BYTES:
      return ZEROES.bytes;
    case ScalarType.INT64:
    case ScalarType.UINT64:
    case ScalarType.SINT64:
    case ScalarType.FIXED64:
    case ScalarType.SFIXED64:
      return ZEROES.bigint;
    default:
      return ZEROES.number;
  }
}

/**
 * A function returning the zero message as one object literal, compiled from the descriptor: V8
 * builds a literal from a boilerplate in one step, where filling an object member by member costs
 * a property store (and a map transition) each. Names and values are written as JSON literals.
 * Where code generation is disallowed (`--disallow-code-generation-from-strings`), the message
 * is filled member by member instead.
 */
function zeroFactory(desc: DescMessage): () => Fields {
  const zeroes: [string, Zero][] = [];
  for (const member of desc.members) {
    const zero = zeroOf(member);
    if (zero !== undefined) zeroes.push([member.localName, zero]);
  }
  const members = [`$typeName: ${JSON.stringify(desc.typeName)}`, ...zeroes.map(([name, z]) => `${JSON.stringify(name)}: ${z.source}`)];
  try {
    return new Function(`return () => ({ ${members.join(", ")} });`)() as () => Fields;
  } catch {
    const typeName = desc.typeName;
    return () => {
      const message: Fields = { $typeName: typeName };
      for (const [name, z] of zeroes) message[name] = z.make();
      return message;
    };
  }
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
