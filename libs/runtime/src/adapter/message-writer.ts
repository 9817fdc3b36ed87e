/**
 * Pass 2 of the message encoder: writes a measured message into a buffer of its exact size,
 * taking the lengths pass 1 recorded in the order it recorded them.
 */

import { ScalarType, type DescMessage } from "@bufbuild/protobuf";
import { Wire, mapKeyOf, mapKeys, planOf, setValue, unknownOf, wireOf, type FieldPlan, type Fields } from "./message-plan.js";
import { bits64 } from "./message-size.js";

export class Writer {
  pos = 0;
  next = 0;
  constructor(
    readonly buf: Buffer,
    readonly lengths: readonly number[],
    readonly sort: boolean,
  ) {}

  varint(value: number): void {
    const buf = this.buf;
    if (value < 0) {
      // A negative int32 goes out as its 64-bit two's complement: ten bytes.
      for (let i = 0; i < 9; i++) {
        buf[this.pos++] = (value & 0x7f) | 0x80;
        value >>= 7;
      }
      buf[this.pos++] = 1;
      return;
    }
    while (value > 0x7f) {
      buf[this.pos++] = (value & 0x7f) | 0x80;
      value >>>= 7;
    }
    buf[this.pos++] = value;
  }

  bigVarint(v: bigint): void {
    while (v >= 0x80n) {
      this.buf[this.pos++] = Number(v & 0x7fn) | 0x80;
      v >>= 7n;
    }
    this.buf[this.pos++] = Number(v);
  }

  scalar(scalar: ScalarType, value: unknown): void {
    switch (scalar) {
      case ScalarType.STRING: {
        const n = this.lengths[this.next++] as number;
        this.varint(n);
        this.pos += this.buf.write(value as string, this.pos, n, "utf8");
        return;
      }
      case ScalarType.BYTES: {
        const bytes = value as Uint8Array;
        this.varint(bytes.byteLength);
        this.buf.set(bytes, this.pos);
        this.pos += bytes.byteLength;
        return;
      }
      case ScalarType.BOOL:
        this.buf[this.pos++] = value ? 1 : 0;
        return;
      case ScalarType.DOUBLE:
        this.pos = this.buf.writeDoubleLE(value as number, this.pos);
        return;
      case ScalarType.FLOAT:
        this.pos = this.buf.writeFloatLE(value as number, this.pos);
        return;
      case ScalarType.FIXED32:
        this.pos = this.buf.writeUInt32LE(value as number, this.pos);
        return;
      case ScalarType.SFIXED32:
        this.pos = this.buf.writeInt32LE(value as number, this.pos);
        return;
      case ScalarType.FIXED64:
      case ScalarType.SFIXED64:
        this.pos = this.buf.writeBigUInt64LE(bits64(scalar, value), this.pos);
        return;
      case ScalarType.INT32:
      case ScalarType.UINT32:
        this.varint(value as number);
        return;
      case ScalarType.SINT32: {
        const v = value as number;
        this.varint(((v << 1) ^ (v >> 31)) >>> 0);
        return;
      }
      default:
        if (typeof value === "bigint" && value >= 0n && value < 0x10000000n && scalar !== ScalarType.SINT64) this.varint(Number(value));
        else this.bigVarint(bits64(scalar, value));
    }
  }

  message(desc: DescMessage, msg: Fields): void {
    // Index loops, as in message-size.ts: no iterator objects when this recursion runs unoptimized.
    const fields = planOf(desc).fields;
    for (let i = 0; i < fields.length; i++) {
      const plan = fields[i] as FieldPlan;
      const value = setValue(plan, msg);
      if (value !== undefined) this.field(plan, value);
    }
    const unknown = unknownOf(msg);
    for (let i = 0; i < unknown.length; i++) {
      const u = unknown[i] as (typeof unknown)[number];
      this.varint(((u.no << 3) | u.wireType) >>> 0);
      this.buf.set(u.data, this.pos);
      this.pos += u.data.byteLength;
    }
  }

  nested(desc: DescMessage, msg: Fields, group: boolean, tag: number): void {
    this.varint(tag);
    if (group) {
      this.message(desc, msg);
      this.varint(((tag >>> 3) << 3) | Wire.EndGroup);
      return;
    }
    this.varint(this.lengths[this.next++] as number);
    this.message(desc, msg);
  }

  field(plan: FieldPlan, value: unknown): void {
    const field = plan.field;
    switch (field.fieldKind) {
      case "scalar":
      case "enum":
        this.varint(plan.tag);
        this.scalar(plan.scalar, value);
        return;
      case "message":
        this.nested(field.message, value as Fields, field.delimitedEncoding, plan.tag);
        return;
      case "list": {
        const items = value as unknown[];
        if (field.listKind === "message") {
          for (let i = 0; i < items.length; i++) this.nested(field.message, items[i] as Fields, field.delimitedEncoding, plan.tag);
        } else if (field.packed) {
          this.varint(plan.tag);
          this.varint(this.lengths[this.next++] as number);
          for (let i = 0; i < items.length; i++) this.scalar(plan.scalar, items[i]);
        } else {
          for (let i = 0; i < items.length; i++) {
            this.varint(plan.tag);
            this.scalar(plan.scalar, items[i]);
          }
        }
        return;
      }
      case "map": {
        const map = value as Fields;
        const keyTag = ((1 << 3) | wireOf(field.mapKey)) >>> 0;
        const keys = mapKeys(map, this.sort);
        for (let i = 0; i < keys.length; i++) {
          const key = keys[i] as string;
          this.varint(plan.tag);
          this.varint(this.lengths[this.next++] as number);
          this.varint(keyTag);
          this.scalar(field.mapKey, mapKeyOf(field.mapKey, key));
          const v = map[key];
          if (field.mapKind === "message") this.nested(field.message, v as Fields, false, 0x12);
          else {
            this.varint(((2 << 3) | wireOf(plan.scalar)) >>> 0);
            this.scalar(plan.scalar, v);
          }
        }
        return;
      }
    }
  }
}
