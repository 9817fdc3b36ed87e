/**
 * The wire-level reads of the message decoder over one request buffer. Every read refuses the
 * bytes protobuf-es's `BinaryReader` refuses and reads the bytes it accepts to the same values
 * (the decoder's tests hold it to `fromBinary`); 64-bit varints come back through fields instead
 * of a fresh array per read, and ASCII strings are built without a TextDecoder call.
 */

import { ScalarType } from "@bufbuild/protobuf";
import { getTextEncoding } from "@bufbuild/protobuf/wire";
import { DecodeError } from "./decode-plan.js";
import { Wire } from "./message-plan.js";

// Longer strings go to the TextDecoder, whose per-call cost is then small beside the copy.
const ASCII_SCAN_LIMIT = 64;
// Up to this length V8 copies appended text into a flat string; from the next on, `+=` builds a
// rope of one node per character, which is copied flat again when the text is hashed as a key.
const FLAT_CONCAT_MAX = 12;

// Short ASCII text by appending one-character strings (cached by V8): cheaper than any call out.
function concatenated(buf: Uint8Array, start: number, end: number): string {
  let text = "";
  for (let i = start; i < end; i++) text += String.fromCharCode(buf[i] as number);
  return text;
}

// Longer ASCII text as one flat string in one step (each byte one character, as latin1 reads it).
function oneByteText(buf: Uint8Array, start: number, end: number): string {
  return Buffer.isBuffer(buf) ? buf.toString("latin1", start, end) : String.fromCharCode(...buf.subarray(start, end));
}

const SCRATCH_BYTES = new Uint8Array(8);
const SCRATCH = new DataView(SCRATCH_BYTES.buffer);

export class Reader {
  pos = 0;
  readonly len: number;
  /** The low and high 32 bits of the last 64-bit varint read. */
  lo = 0;
  hi = 0;
  /** Field number and wire type of the last tag read. */
  fieldNo = 0;
  wireType = 0;

  constructor(readonly buf: Uint8Array) {
    this.len = buf.length;
  }

  assertBounds(): void {
    if (this.pos > this.len) throw new DecodeError("premature EOF");
  }

  /**
   * Reads a varint as an unsigned 32-bit number. Its first five bytes carry the 32 bits (the
   * fifth only its low four); up to five more, as a negative int32 written as 64 bits has them,
   * are passed over. A tenth byte that still continues is refused.
   */
  uint32(): number {
    const buf = this.buf;
    let value = 0;
    let byte = 0x80;
    for (let i = 0; (byte & 0x80) !== 0; i += 1) {
      if (i === 10) throw new DecodeError("invalid varint");
      // Past the end reads as 0, which ends the varint; the bounds check then refuses it.
      byte = buf[this.pos++] ?? 0;
      if (i < 4) value |= (byte & 0x7f) << (7 * i);
      else if (i === 4) value |= (byte & 0x0f) << 28;
    }
    this.assertBounds();
    return value >>> 0;
  }

  /** Reads a 64-bit varint into `lo` and `hi`, its low and high 32 bits. */
  varint64(): void {
    const buf = this.buf;
    let lo = 0;
    let hi = 0;
    // Byte i carries bits 7i to 7i+6: the first four bytes fill `lo`, the fifth straddles the
    // halves and the rest fill `hi`. A tenth byte that still continues is refused.
    for (let i = 0; i < 10; i += 1) {
      const byte = buf[this.pos++] ?? 0;
      const bits = byte & 0x7f;
      if (i < 4) lo |= bits << (7 * i);
      else if (i === 4) {
        lo |= (bits & 0x0f) << 28;
        hi = bits >> 4;
      } else hi |= bits << (7 * i - 32);
      if ((byte & 0x80) === 0) {
        this.done64(lo, hi);
        return;
      }
    }
    throw new DecodeError("invalid varint");
  }

  private done64(lo: number, hi: number): void {
    this.assertBounds();
    this.lo = lo;
    this.hi = hi;
  }

  /** Reads a tag into `fieldNo` and `wireType`, refusing field number 0 and wire types 6 and 7. */
  tag(): void {
    const start = this.pos;
    const tag = this.uint32();
    const read = this.pos - start;
    if (read > 5 || (read === 5 && (this.buf[this.pos - 1] as number) > 0x0f))
      throw new DecodeError("illegal tag: varint overflows uint32");
    this.fieldNo = tag >>> 3;
    this.wireType = tag & 7;
    if (this.fieldNo <= 0 || this.wireType > 5) throw new DecodeError(`illegal tag: field no ${this.fieldNo} wire type ${this.wireType}`);
  }

  /** Skips one value of an unknown field and returns its bytes (after the tag). */
  skip(wireType: number, fieldNo: number, recursionLimit: number): Uint8Array {
    const start = this.pos;
    switch (wireType) {
      case Wire.Varint:
        while ((this.buf[this.pos++] as number) & 0x80) {}
        break;
      case Wire.Bit64:
        this.pos += 8;
        break;
      case Wire.Bit32:
        this.pos += 4;
        break;
      case Wire.Delimited: {
        const len = this.uint32();
        this.pos += len;
        break;
      }
      case Wire.StartGroup:
        if (recursionLimit <= 0) throw new DecodeError("maximum recursion depth reached");
        for (;;) {
          this.tag();
          const fn = this.fieldNo;
          const wt = this.wireType;
          if (wt === Wire.EndGroup) {
            if (fn !== fieldNo) throw new DecodeError("invalid end group tag");
            break;
          }
          this.skip(wt, fn, recursionLimit - 1);
        }
        break;
      default:
        throw new DecodeError(`cant skip wire type ${wireType}`);
    }
    this.assertBounds();
    return this.buf.subarray(start, this.pos);
  }

  /** A view of the next length-delimited value within the request buffer. */
  bytes(): Uint8Array {
    const len = this.uint32();
    const start = this.pos;
    this.pos += len;
    this.assertBounds();
    return this.buf.subarray(start, start + len);
  }

  string(strict: boolean): string {
    const len = this.uint32();
    const start = this.pos;
    this.pos += len;
    this.assertBounds();
    const buf = this.buf;
    if (len <= ASCII_SCAN_LIMIT) {
      // ASCII is valid UTF-8 and has no byte-order mark to strip: the text is its char codes.
      const end = start + len;
      let i = start;
      while (i < end && (buf[i] as number) < 0x80) i++;
      if (i === end) return len <= FLAT_CONCAT_MAX ? concatenated(buf, start, end) : oneByteText(buf, start, end);
    }
    return getTextEncoding().decodeUtf8(buf.subarray(start, start + len), strict);
  }

  // Copies `width` bytes into the scratch view: cheaper than a DataView over every request.
  private fixed(width: number): DataView {
    const start = this.pos;
    this.pos += width;
    if (this.pos > this.len) throw new DecodeError("premature EOF");
    for (let i = 0; i < width; i++) SCRATCH_BYTES[i] = this.buf[start + i] as number;
    return SCRATCH;
  }

  sfixed32(): number {
    return this.fixed(4).getInt32(0, true);
  }

  /** A scalar value as protobuf-es represents it: 64-bit integers as bigint, bytes as a view. */
  scalar(type: ScalarType, strict: boolean): unknown {
    switch (type) {
      case ScalarType.STRING:
        return this.string(strict);
      case ScalarType.BOOL:
        this.varint64();
        return this.lo !== 0 || this.hi !== 0;
      case ScalarType.DOUBLE:
        return this.fixed(8).getFloat64(0, true);
      case ScalarType.FLOAT:
        return this.fixed(4).getFloat32(0, true);
      case ScalarType.INT32:
        return this.uint32() | 0;
      case ScalarType.UINT32:
        return this.uint32();
      case ScalarType.SINT32: {
        const zz = this.uint32();
        return (zz >>> 1) ^ -(zz & 1);
      }
      case ScalarType.INT64:
        this.varint64();
        return int64Of(this.lo, this.hi);
      case ScalarType.UINT64:
        this.varint64();
        return uint64Of(this.lo, this.hi);
      case ScalarType.SINT64: {
        this.varint64();
        const sign = -(this.lo & 1);
        return int64Of(((this.lo >>> 1) | ((this.hi & 1) << 31)) ^ sign, (this.hi >>> 1) ^ sign);
      }
      case ScalarType.FIXED32:
        return this.fixed(4).getUint32(0, true);
      case ScalarType.SFIXED32:
        return this.sfixed32();
      case ScalarType.FIXED64: {
        const lo = this.sfixed32();
        return uint64Of(lo, this.sfixed32());
      }
      case ScalarType.SFIXED64: {
        const lo = this.sfixed32();
        return int64Of(lo, this.sfixed32());
      }
      case ScalarType.BYTES:
        return this.bytes();
    }
  }
}

function uint64Of(lo: number, hi: number): bigint {
  if (hi === 0) return BigInt(lo >>> 0);
  return (BigInt(hi >>> 0) << 32n) | BigInt(lo >>> 0);
}

function int64Of(lo: number, hi: number): bigint {
  if (hi === 0) return BigInt(lo >>> 0);
  return BigInt.asIntN(64, (BigInt(hi >>> 0) << 32n) | BigInt(lo >>> 0));
}
