import { int, isObject, obj, parseJson } from "./json.js";

/** Shape an output body was recognised as. */
export type EnvelopeKind = "structured" | "text" | "unified_exec" | "opaque" | "malformed";

/** The numbers an output body carries, with the body itself dropped. */
export interface Envelope {
  readonly kind: EnvelopeKind;
  /** True when an exit code was read. */
  readonly hasExit: boolean;
  /** Exit code; meaningful only when {@link Envelope.hasExit}. */
  readonly exitCode: number;
  /** Wall time the harness reported, in seconds (0 when absent). */
  readonly wallS: number;
  /** True when the first output line is a harness timeout marker or the exit is 124/143. */
  readonly timedOut: boolean;
  /** True for a unified-exec result whose process is still running. */
  readonly running: boolean;
}

const TIMEOUT_MARKER = /^(?:command )?timed out after/i;
const TIMEOUT_EXITS = new Set([124, 143]);
// Whitespace in the harness headers is the reference engine's ASCII set, not any Unicode space.
const TEXT_HEADER = /^Exit code:[\t\n\f\r ]*(-?\d+)/;
const WALL_TIME = /Wall time:[\t\n\f\r ]*([0-9.]+) seconds/;
const UNIFIED_EXIT = /^Process exited with code (-?\d+)\s*$/m;
const UNIFIED_RUNNING = /^Process running with session ID \S+\s*$/m;
const UNIFIED_HEADER = /^(?:Chunk ID:|Wall time:|Process exited with code|Process running with session ID)/;

function envelope(kind: EnvelopeKind, fields: Partial<Omit<Envelope, "kind">> = {}): Envelope {
  const exitCode = fields.exitCode ?? 0;
  const hasExit = fields.hasExit ?? false;
  const timedOut = (fields.timedOut ?? false) || (hasExit && TIMEOUT_EXITS.has(exitCode));
  return { kind, hasExit, exitCode, wallS: fields.wallS ?? 0, timedOut, running: fields.running ?? false };
}

/** The first non-empty-led line of a body, trimmed. */
export function firstLine(text: string): string {
  // Scans in place: output bodies can be large and only their first line matters.
  let i = 0;
  while (i < text.length && "\r\n \t".includes(text.charAt(i))) i += 1;
  const nl = text.indexOf("\n", i);
  return text.slice(i, nl < 0 ? text.length : nl).trim();
}

/** True when the text's first line is a harness timeout marker. */
export function startsWithTimeout(text: string): boolean {
  return TIMEOUT_MARKER.test(firstLine(text));
}

// The text after the first `Output:` that ends its line (LF or CRLF), found in one pass: bodies
// can be long, and a second search for the other line ending would read all of one that has none.
function bodyAfterOutput(s: string): string | null {
  for (let at = s.indexOf("Output:"); at >= 0; at = s.indexOf("Output:", at + 1)) {
    const next = s.charCodeAt(at + 7);
    if (next === 0x0a) return s.slice(at + 8);
    if (next === 0x0d && s.charCodeAt(at + 8) === 0x0a) return s.slice(at + 9);
  }
  return null;
}

function wallSeconds(s: string): number {
  const m = WALL_TIME.exec(s);
  const v = m?.[1] === undefined ? Number.NaN : Number.parseFloat(m[1]);
  return Number.isFinite(v) ? v : 0;
}

function structured(s: string): Envelope {
  const parsed = parseJson(s);
  if (!isObject(parsed)) return envelope("malformed");
  const meta = obj(parsed, "metadata");
  const exit = meta === null ? null : int(meta, "exit_code");
  const dur = meta?.["duration_seconds"];
  const out = parsed["output"];
  return envelope("structured", {
    hasExit: exit !== null,
    exitCode: exit ?? 0,
    wallS: typeof dur === "number" && Number.isFinite(dur) ? dur : 0,
    timedOut: typeof out === "string" && startsWithTimeout(out),
  });
}

function text(s: string): Envelope {
  const m = TEXT_HEADER.exec(s);
  if (m?.[1] === undefined) return envelope("malformed");
  const body = bodyAfterOutput(s);
  return envelope("text", {
    hasExit: true,
    exitCode: Number.parseInt(m[1], 10),
    wallS: wallSeconds(s),
    timedOut: body !== null && startsWithTimeout(body),
  });
}

function unifiedExec(s: string): Envelope | null {
  // The header test reads only the start of the text, which the header shares (none of its
  // markers contains `Output:`), so other text is turned away before its body is searched for.
  if (!UNIFIED_HEADER.test(s)) return null;
  const body = bodyAfterOutput(s);
  const header = body === null ? s : s.slice(0, s.length - body.length);
  const exit = UNIFIED_EXIT.exec(header);
  const running = UNIFIED_RUNNING.test(header);
  if (exit?.[1] === undefined && !running) return null;
  return envelope("unified_exec", {
    hasExit: exit?.[1] !== undefined,
    exitCode: exit?.[1] === undefined ? 0 : Number.parseInt(exit[1], 10),
    wallS: wallSeconds(header),
    timedOut: body !== null && startsWithTimeout(body),
    running: exit?.[1] === undefined && running,
  });
}

/** Decodes one tool output body into its envelope numbers; the body is not retained. */
export function decodeEnvelope(output: string): Envelope {
  const s = output.trim();
  if (s === "") return envelope("opaque");
  if (s.startsWith("{")) return structured(s);
  if (s.startsWith("Exit code:")) return text(s);
  return unifiedExec(s) ?? envelope("opaque");
}
