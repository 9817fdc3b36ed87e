import { createHash } from "node:crypto";
import { RolloutFold, type RolloutCensus } from "@crs/domain/rollout";
import { malformedUpload, rolloutTooLarge } from "../errors.js";
import { RolloutReader } from "../reader/index.js";

// Blank lines and records the fold deliberately ignores are not decoding failures.
const DECODED_OR_EMPTY = new Set(["blank", "not_analysed"]);

/** Server limits on one upload. */
export interface UploadLimits {
  /** Largest rollout, declared or received, in bytes. */
  readonly maxRolloutBytes: number;
  /** Longest line decoded in full, in bytes before its line feed; longer ones are read by their head and counted. */
  readonly maxLineBytes: number;
}

/** What the client declared about the content before sending it: 0 and "" when unknown. */
export interface DeclaredContent {
  /** The uint64 of the contract, kept exact: any size past the limit is refused as too large. */
  readonly sizeBytes: bigint;
  /** Lowercase hex SHA-256. */
  readonly sha256: string;
}

/** An upload received in full: its census, its records folded as they arrived, and what was received. */
export interface ReceivedRollout {
  readonly census: RolloutCensus;
  /** The fold of every record, to be finished with the caller's freshness. */
  readonly fold: RolloutFold;
  readonly bytes: number;
  /** Lowercase hex SHA-256 of the bytes received. */
  readonly sha256: string;
  /** Non-blank lines read. */
  readonly lines: number;
  /** Lines that did not decode (not JSON, not an object, an unknown type or no payload) or were over the line limit. */
  readonly linesSkipped: number;
}

/**
 * Folds uploaded bytes as they arrive: each line is decoded to a body-free record and pushed
 * into the rollout fold, and the bytes are hashed and counted. Neither the upload nor its
 * records are held: only the unfinished line (at most the line limit) and the fold's open state.
 */
export class RolloutBody {
  readonly #hash = createHash("sha256");
  readonly #reader: RolloutReader;
  readonly #limits: UploadLimits;
  /** The declared size, within the limit and so an exact number; 0 when unknown. */
  readonly #declaredBytes: number;
  readonly #declaredSha: string;
  readonly #fold: RolloutFold;
  #bytes = 0;

  /** `maxListed` caps the per-call lists the fold keeps (every call is still counted). */
  constructor(limits: UploadLimits, declared: DeclaredContent, maxListed?: number) {
    // A declared size over the limit is refused before any byte is read.
    if (declared.sizeBytes > BigInt(limits.maxRolloutBytes))
      throw rolloutTooLarge("upload.size_bytes", declared.sizeBytes, limits.maxRolloutBytes);
    this.#limits = limits;
    this.#declaredBytes = Number(declared.sizeBytes);
    this.#declaredSha = declared.sha256;
    // An upload is answered with its analytics, never a corpus partial: no post-tool samples.
    const fold = new RolloutFold(maxListed === undefined ? { postToolSamples: false } : { maxListed, postToolSamples: false });
    this.#fold = fold;
    this.#reader = new RolloutReader({ maxLineBytes: limits.maxLineBytes }, (r) => fold.push(r));
  }

  /** Takes the next chunk of content. */
  push(chunk: Uint8Array): void {
    this.#bytes += chunk.length;
    if (this.#bytes > this.#limits.maxRolloutBytes) throw rolloutTooLarge("chunk", this.#bytes, this.#limits.maxRolloutBytes);
    const declared = this.#declaredBytes;
    if (declared > 0 && this.#bytes > declared) throw malformedUpload("upload.size_bytes", `declares ${declared} bytes but more arrived`);
    this.#hash.update(chunk);
    this.#reader.push(chunk);
  }

  /** Ends the content, checks what was declared, and returns the census and the fold. */
  finish(): ReceivedRollout {
    const rollout = this.#reader.end();
    const sha256 = this.#hash.digest("hex");
    const sizeBytes = this.#declaredBytes;
    const declaredSha = this.#declaredSha;
    if (sizeBytes > 0 && this.#bytes !== sizeBytes)
      throw malformedUpload("upload.size_bytes", `declares ${sizeBytes} bytes but ${this.#bytes} arrived`);
    if (declaredSha !== "" && declaredSha !== sha256)
      throw malformedUpload("upload.sha256", "does not match the SHA-256 of the bytes received");
    // An oversized line whose head named a record is counted once, as over the limit.
    const skipped =
      Object.entries(rollout.skipped).reduce((sum, [reason, n]) => (DECODED_OR_EMPTY.has(reason) ? sum : sum + (n ?? 0)), 0) -
      (rollout.skipped.too_long ?? 0) +
      rollout.oversized;
    const { records: _, ...census } = rollout;
    return { census, fold: this.#fold, bytes: this.#bytes, sha256, lines: rollout.lines, linesSkipped: skipped };
  }
}
