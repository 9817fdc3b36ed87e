import { createHash } from "node:crypto";
import type { DecodedRollout } from "@crs/domain/rollout";
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
  readonly sizeBytes: number;
  /** Lowercase hex SHA-256. */
  readonly sha256: string;
}

/** An upload received in full: its body-free decoding and what was received. */
export interface ReceivedRollout {
  readonly rollout: DecodedRollout;
  readonly bytes: number;
  /** Lowercase hex SHA-256 of the bytes received. */
  readonly sha256: string;
  /** Non-blank lines read. */
  readonly lines: number;
  /** Lines that did not decode (not JSON, not an object, an unknown type or no payload) or were over the line limit. */
  readonly linesSkipped: number;
}

/**
 * Folds uploaded bytes into body-free records as they arrive, hashing and counting them, so
 * the upload itself is never held: only the unfinished line (at most the line limit) and the
 * decoded records are.
 */
export class RolloutBody {
  readonly #hash = createHash("sha256");
  readonly #reader: RolloutReader;
  readonly #limits: UploadLimits;
  readonly #declared: DeclaredContent;
  #bytes = 0;

  constructor(limits: UploadLimits, declared: DeclaredContent) {
    // A declared size over the limit is refused before any byte is read.
    if (declared.sizeBytes > limits.maxRolloutBytes) throw rolloutTooLarge("upload.size_bytes", declared.sizeBytes, limits.maxRolloutBytes);
    this.#limits = limits;
    this.#declared = declared;
    this.#reader = new RolloutReader({ maxLineBytes: limits.maxLineBytes });
  }

  /** Takes the next chunk of content. */
  push(chunk: Uint8Array): void {
    this.#bytes += chunk.length;
    if (this.#bytes > this.#limits.maxRolloutBytes) throw rolloutTooLarge("chunk", this.#bytes, this.#limits.maxRolloutBytes);
    const declared = this.#declared.sizeBytes;
    if (declared > 0 && this.#bytes > declared) throw malformedUpload("upload.size_bytes", `declares ${declared} bytes but more arrived`);
    this.#hash.update(chunk);
    this.#reader.push(chunk);
  }

  /** Ends the content, checks what was declared, and returns the decoded rollout. */
  finish(): ReceivedRollout {
    const rollout = this.#reader.end();
    const sha256 = this.#hash.digest("hex");
    const { sizeBytes, sha256: declaredSha } = this.#declared;
    if (sizeBytes > 0 && this.#bytes !== sizeBytes)
      throw malformedUpload("upload.size_bytes", `declares ${sizeBytes} bytes but ${this.#bytes} arrived`);
    if (declaredSha !== "" && declaredSha !== sha256)
      throw malformedUpload("upload.sha256", "does not match the SHA-256 of the bytes received");
    // An oversized line whose head named a record is counted once, as over the limit.
    const skipped =
      Object.entries(rollout.skipped).reduce((sum, [reason, n]) => (DECODED_OR_EMPTY.has(reason) ? sum : sum + (n ?? 0)), 0) -
      (rollout.skipped.too_long ?? 0) +
      rollout.oversized;
    return { rollout, bytes: this.#bytes, sha256, lines: rollout.lines, linesSkipped: skipped };
  }
}
