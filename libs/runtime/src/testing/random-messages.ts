/**
 * Random messages of every type in the project's contracts, for property tests of the binary
 * codecs: a seeded generator, so a failure names a seed that reproduces it.
 */

import { readdirSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { ScalarType, type DescField, type DescMessage } from "@bufbuild/protobuf";
import { isWrapperDesc } from "@bufbuild/protobuf/wkt";

const GEN = resolve(dirname(fileURLToPath(import.meta.url)), "../../../contracts/src/gen");
/** Every message type of the project's contracts, in file order. */
export const schemas: DescMessage[] = [];
for (const file of readdirSync(GEN, { recursive: true, encoding: "utf8" })
  .filter((f) => f.endsWith("_pb.ts"))
  .sort()) {
  const module = (await import(pathToFileURL(join(GEN, file)).href)) as Record<string, unknown>;
  for (const value of Object.values(module))
    if (typeof value === "object" && value !== null && (value as { kind?: unknown }).kind === "message") schemas.push(value as DescMessage);
}

// A small seeded generator (mulberry32), so a failure names a seed that reproduces it.
export function rng(seed: number): () => number {
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
export function randomInit(desc: DescMessage, r: () => number, depth = 0): Record<string, unknown> {
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
      for (let i = Math.floor(r() * 4); i > 0; i--) {
        // String keys from a few that collide; other key types as their values print.
        const key = field.mapKey === ScalarType.STRING ? (STRINGS[Math.floor(r() * 5)] as string) : String(scalarValue(field.mapKey, r));
        map[key] = itemValue(field, r, depth);
      }
      init[field.localName] = map;
    } else if (field.fieldKind === "message" && isWrapperDesc(field.message)) {
      // A singular wrapper field holds the bare value.
      init[field.localName] = scalarValue((field.message.fields[0] as DescField & { scalar: ScalarType }).scalar, r);
    } else init[field.localName] = itemValue(field, r, depth);
  }
  return init;
}
