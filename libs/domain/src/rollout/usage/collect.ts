import { decodeLine, decodeOversizedLine, decodeValue } from "../decode/decode-line.js";
import type { DecodedLine } from "../decode/record.js";
import { isObject, trimmed } from "../json.js";
import { parseTimestamp } from "../time.js";
import { tokenCountModel, tokenCountUsage } from "./figures.js";
import { UsageFold } from "./fold.js";
import { readTokenLineInto, TokenLineRead } from "./token-line.js";
import type { UsagePartial } from "./types.js";

/** The usage of one rollout and the working directory its first session_meta recorded. */
export interface RolloutUsage {
  readonly usage: UsagePartial;
  /** Recorded cwd ("" when the rollout has no session_meta). */
  readonly cwd: string;
}

// What a line that is no JSON parses to: the full decoder skips such a line, and so do the short paths.
const NOT_JSON = Symbol("not JSON");

function parseLine(line: string): unknown {
  try {
    return JSON.parse(line.trim());
  } catch {
    return NOT_JSON;
  }
}

/**
 * Folds the lines a usage-only reader picked out (see `usageLineVerdict`) into the rollout's
 * usage. Lines are decoded as the scan decodes them, so the figures equal the scan's.
 */
export class UsageCollector {
  readonly #fold = new UsageFold();
  // The token_count line read in place last.
  readonly #line = new TokenLineRead();
  #cwd: string | null = null;

  /** True until a session_meta has been read: later ones are inherited copies and change nothing. */
  get wantsMeta(): boolean {
    return this.#cwd === null;
  }

  /** Decodes and folds one whole line. */
  push(line: string): void {
    this.#take(decodeLine(line));
  }

  /**
   * Decodes and folds a line whose head names a `token_count` event. Once parsed, it is read for
   * what the fold needs alone, exactly as the full decoder reads it: the same trimming, parse,
   * type checks (the parsed members decide, not the head) and figures. Anything else about it is
   * left to the full decoder.
   */
  pushTokenCount(line: string): void {
    const parsed = parseLine(line);
    if (parsed === NOT_JSON) return;
    const payload = isObject(parsed) && parsed["type"] === "event_msg" ? parsed["payload"] : undefined;
    if (!isObject(parsed) || !isObject(payload) || payload["type"] !== "token_count") {
      this.#take(decodeValue(parsed));
      return;
    }
    const usage = tokenCountUsage(payload);
    if (usage === null) return;
    const stamp = parsed["timestamp"];
    const timestamp = typeof stamp === "string" ? stamp : "";
    this.#fold.reply(usage, timestamp === "" ? null : parseTimestamp(timestamp), tokenCountModel(payload));
  }

  /**
   * Decodes and folds a line whose head names a `turn_context`: once parsed, a turn context is
   * read for its model alone, as the full decoder reads it (the parsed members decide, not the
   * head); anything else about the line is left to the full decoder.
   */
  pushTurnContext(line: string): void {
    const parsed = parseLine(line);
    if (parsed === NOT_JSON) return;
    const payload = isObject(parsed) && parsed["type"] === "turn_context" ? parsed["payload"] : undefined;
    if (isObject(payload)) this.#fold.turnContext(trimmed(payload, "model"));
    else this.#take(decodeValue(parsed));
  }

  /**
   * Folds a line whose head names a `token_count` event, given as its bytes `bytes[start..end)`,
   * when it is in the producer's exact layout (see `readTokenLineInto`); false when it is not,
   * and the caller must decode it as UTF-8 for {@link pushTokenCount}.
   */
  pushTokenCountBytes(bytes: Uint8Array, start: number, end: number): boolean {
    const line = this.#line;
    if (!readTokenLineInto(bytes, start, end, line)) return false;
    if (line.hasTotal) this.#fold.replyFigures(line, line.tsMs);
    return true;
  }

  /** Folds a line too long to hold, by its leading text (it never carries figures). */
  pushOversized(head: string): void {
    this.#take(decodeOversizedLine(head));
  }

  #take(decoded: DecodedLine): void {
    if (!decoded.ok) return;
    const record = decoded.record;
    if (record.kind === "session_meta") this.#cwd ??= record.meta.cwd;
    this.#fold.push(record);
  }

  /** The rollout's usage, named `session`, and its recorded cwd. */
  result(session: string): RolloutUsage {
    return { usage: this.#fold.result(session), cwd: this.#cwd ?? "" };
  }
}
