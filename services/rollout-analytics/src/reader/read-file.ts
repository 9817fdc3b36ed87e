import { open } from "node:fs/promises";
import type { DecodedRollout } from "@crs/domain/rollout";
import { RolloutReader, type ReaderLimits } from "./rollout-reader.js";

/** Bytes read from a file at a time; one buffer is reused for the whole file. */
export const READ_CHUNK_BYTES = 1024 * 1024;

/** A rollout file decoded, with the bytes read. */
export interface ReadRollout {
  readonly rollout: DecodedRollout;
  readonly bytes: number;
}

/** Reads and decodes one rollout file in fixed-size chunks; I/O errors reject. */
export async function readRolloutFile(path: string, limits?: ReaderLimits, signal?: AbortSignal): Promise<ReadRollout> {
  const reader = new RolloutReader(limits);
  const handle = await open(path, "r");
  try {
    const buffer = Buffer.allocUnsafe(READ_CHUNK_BYTES);
    for (;;) {
      signal?.throwIfAborted();
      const { bytesRead } = await handle.read(buffer, 0, buffer.length, null);
      if (bytesRead === 0) break;
      reader.push(buffer.subarray(0, bytesRead));
    }
  } finally {
    await handle.close();
  }
  return { rollout: reader.end(), bytes: reader.bytes };
}
