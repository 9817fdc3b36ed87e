// Reads the leading members of a JSON line whose whole text is too long to hold: the
// producer writes `timestamp`, `type` and `payload.type` first, so the first kilobytes name
// the record while the body is never materialised.
import type { JsonObject } from "../json.js";

const SCALAR = /-?(?:0|[1-9]\d*)(?:\.\d+)?(?:[eE][+-]?\d+)?|true|false|null/y;
const SPACE = /[ \t\r\n]*/y;

// A truncated value ends the read; what was read before it stands.
class Truncated {}
const TRUNCATED = new Truncated();

class Cursor {
  i = 0;
  constructor(readonly text: string) {}

  skipSpace(): void {
    SPACE.lastIndex = this.i;
    SPACE.exec(this.text);
    this.i = SPACE.lastIndex;
  }

  peek(): string {
    this.skipSpace();
    const c = this.text[this.i];
    if (c === undefined) throw TRUNCATED;
    return c;
  }

  expect(c: string): void {
    if (this.peek() !== c) throw TRUNCATED;
    this.i += 1;
  }

  string(): string {
    const start = this.i;
    let i = start + 1;
    for (;;) {
      const c = this.text.charCodeAt(i);
      if (Number.isNaN(c)) throw TRUNCATED;
      if (c === 0x5c) i += 2;
      else if (c === 0x22) break;
      else i += 1;
    }
    this.i = i + 1;
    const value: unknown = JSON.parse(this.text.slice(start, i + 1));
    if (typeof value !== "string") throw TRUNCATED;
    return value;
  }

  // Skips a nested array or object, string-aware, without building it.
  skipContainer(): void {
    let depth = 0;
    for (let i = this.i; i < this.text.length; i += 1) {
      const c = this.text[i];
      if (c === '"') {
        this.i = i;
        this.string();
        i = this.i - 1;
      } else if (c === "{" || c === "[") depth += 1;
      else if (c === "}" || c === "]") {
        depth -= 1;
        if (depth === 0) {
          this.i = i + 1;
          return;
        }
      }
    }
    throw TRUNCATED;
  }

  scalar(): unknown {
    SCALAR.lastIndex = this.i;
    const m = SCALAR.exec(this.text);
    // A number cut by the end of the prefix could read as a shorter one.
    if (m === null || SCALAR.lastIndex >= this.text.length) throw TRUNCATED;
    this.i = SCALAR.lastIndex;
    return JSON.parse(m[0]) as unknown;
  }
}

// Members are read into `out` as they complete, so a truncation keeps the earlier ones.
function readObject(cur: Cursor, out: JsonObject, nested: boolean): void {
  cur.expect("{");
  if (cur.peek() === "}") return;
  for (;;) {
    if (cur.peek() !== '"') throw TRUNCATED;
    const key = cur.string();
    cur.expect(":");
    const c = cur.peek();
    if (c === '"') out[key] = cur.string();
    else if (c === "{" && !nested && key === "payload") {
      const payload: JsonObject = {};
      out[key] = payload;
      readObject(cur, payload, true);
    } else if (c === "{" || c === "[") cur.skipContainer();
    else out[key] = cur.scalar();
    const next = cur.peek();
    cur.i += 1;
    if (next === "}") return;
    if (next !== ",") throw TRUNCATED;
  }
}

/**
 * The scalar members of a line's leading text, and those of its `payload`, read up to where the
 * text ends or stops being readable; null when the text does not open a JSON object.
 */
export function readLineHead(prefix: string): JsonObject | null {
  const cur = new Cursor(prefix);
  const out: JsonObject = {};
  try {
    if (cur.peek() !== "{") return null;
    readObject(cur, out, false);
  } catch (e) {
    if (!(e instanceof Truncated) && !(e instanceof SyntaxError)) throw e;
  }
  return out;
}
