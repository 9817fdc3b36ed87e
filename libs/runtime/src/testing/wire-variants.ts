/**
 * Other encodings of a message than the one `toBinary` writes, as other writers (or damaged
 * transports) produce them, for property tests of the binary decoder: fields out of order, fields
 * repeated, unknown fields in between, packed lists sent unpacked, and bytes cut or changed.
 */

import { ScalarType, type DescField, type DescMessage } from "@bufbuild/protobuf";
import { BinaryReader, BinaryWriter, WireType } from "@bufbuild/protobuf/wire";
import { wireOf } from "../adapter/message-plan.js";

interface Chunk {
  readonly no: number;
  readonly wireType: WireType;
  /** The value's bytes after the tag (for a delimited value, after its length too). */
  readonly data: Uint8Array;
}

// The top-level fields of an encoded message, in the order written.
function chunksOf(bytes: Uint8Array): Chunk[] {
  const reader = new BinaryReader(bytes);
  const chunks: Chunk[] = [];
  while (reader.pos < reader.len) {
    const [no, wireType] = reader.tag();
    if (wireType === WireType.LengthDelimited) chunks.push({ no, wireType, data: reader.bytes() });
    else chunks.push({ no, wireType, data: reader.skip(wireType, no) });
  }
  return chunks;
}

function write(writer: BinaryWriter, chunk: Chunk): void {
  writer.tag(chunk.no, chunk.wireType);
  if (chunk.wireType === WireType.LengthDelimited) writer.bytes(chunk.data);
  else writer.raw(chunk.data);
}

// The items of a packed run, each as its own unpacked chunk.
function unpacked(no: number, scalar: ScalarType, data: Uint8Array): Chunk[] {
  // A packed item has the wire type of the scalar written alone.
  const wireType: WireType = wireOf(scalar);
  const reader = new BinaryReader(data);
  const items: Chunk[] = [];
  while (reader.pos < reader.len) items.push({ no, wireType, data: reader.skip(wireType, no) });
  return items;
}

// A field the type does not know, with a value of a random wire type (a group holds a varint).
function unknownChunk(desc: DescMessage, r: () => number): Chunk {
  let no = 1 + Math.floor(r() * 2000);
  while (desc.fields.some((f) => f.number === no)) no++;
  const writer = new BinaryWriter();
  switch (Math.floor(r() * 5)) {
    case 0:
      return { no, wireType: WireType.Varint, data: writer.uint64(BigInt(Math.floor(r() * 2 ** 40))).finish() };
    case 1:
      return { no, wireType: WireType.Bit64, data: writer.double(r()).finish() };
    case 2:
      return { no, wireType: WireType.Bit32, data: writer.fixed32(Math.floor(r() * 2 ** 32)).finish() };
    case 3:
      return { no, wireType: WireType.LengthDelimited, data: writer.string("unknown").finish() };
    default:
      return { no, wireType: WireType.StartGroup, data: writer.tag(1, WireType.Varint).uint32(7).tag(no, WireType.EndGroup).finish() };
  }
}

function isPackable(field: DescField): field is DescField & { fieldKind: "list" } {
  return (
    field.fieldKind === "list" && field.listKind !== "message" && field.scalar !== ScalarType.STRING && field.scalar !== ScalarType.BYTES
  );
}

/**
 * Another encoding of the message `bytes` encode, at every depth: packed lists sent unpacked or
 * split in two, unknown fields inserted, some fields sent twice, and the fields shuffled.
 */
export function reshaped(desc: DescMessage, bytes: Uint8Array, r: () => number): Uint8Array {
  const out: Chunk[] = [];
  for (const chunk of chunksOf(bytes)) {
    const field = desc.fields.find((f) => f.number === chunk.no);
    let parts = [chunk];
    if (field !== undefined && chunk.wireType === WireType.LengthDelimited) {
      if (field.fieldKind === "message" || (field.fieldKind === "list" && field.listKind === "message"))
        parts = [{ ...chunk, data: reshaped(field.message, chunk.data, r) }];
      else if (isPackable(field)) {
        const items = unpacked(chunk.no, field.scalar ?? ScalarType.INT32, chunk.data);
        const cut = Math.floor(r() * (items.length + 1));
        const packed = (xs: Chunk[]): Chunk => {
          const writer = new BinaryWriter();
          for (const x of xs) writer.raw(x.data);
          return { no: chunk.no, wireType: WireType.LengthDelimited, data: writer.finish() };
        };
        const choice = r();
        // Unpacked, or two packed runs, or the two mixed: readers must accept all of them.
        if (choice < 0.4) parts = items;
        else if (choice < 0.7) parts = [packed(items.slice(0, cut)), packed(items.slice(cut))];
        else parts = [...items.slice(0, cut), packed(items.slice(cut))];
      }
    }
    for (const part of parts) {
      if (r() < 0.2) out.push(unknownChunk(desc, r));
      out.push(part);
      if (r() < 0.15) out.push(part);
    }
  }
  if (r() < 0.3) out.push(unknownChunk(desc, r));
  // Any order: readers must accept it (the order of one field's own values changes the message).
  const keyed = out.map((chunk) => ({ chunk, key: r() }));
  if (r() < 0.5) keyed.sort((a, b) => a.key - b.key);
  const writer = new BinaryWriter();
  for (const { chunk } of keyed) write(writer, chunk);
  return writer.finish();
}

/** `bytes` cut short, or with one to three bytes overwritten by random values. */
export function damaged(bytes: Uint8Array, r: () => number): Uint8Array {
  if (bytes.length === 0) return Uint8Array.of(Math.floor(r() * 256));
  // Copies: Buffer's slice() would share (and so damage) the caller's bytes.
  if (r() < 0.4) return Uint8Array.from(bytes.subarray(0, Math.floor(r() * bytes.length)));
  const copy = Uint8Array.from(bytes);
  for (let n = 1 + Math.floor(r() * 3); n > 0; n--) copy[Math.floor(r() * copy.length)] = Math.floor(r() * 256);
  return copy;
}
