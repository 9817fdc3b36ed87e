import { closeSync, openSync, readSync } from "node:fs";
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

// One chunk buffer per thread serves every blocking read, since they never interleave.
let syncBuffer: Buffer | null = null;

/**
 * Reads and decodes one rollout file with blocking reads, for a scan worker thread that has
 * nothing else to do meanwhile (each awaited read would cost a round trip through the event
 * loop and the thread pool); I/O errors throw.
 */
export function readRolloutFileSync(path: string, limits?: ReaderLimits): ReadRollout {
  const reader = new RolloutReader(limits);
  syncBuffer ??= Buffer.allocUnsafe(READ_CHUNK_BYTES);
  const buffer = syncBuffer;
  const fd = openSync(path, "r");
  try {
    for (;;) {
      const bytesRead = readSync(fd, buffer, 0, buffer.length, null);
      if (bytesRead === 0) break;
      reader.push(buffer.subarray(0, bytesRead));
    }
  } finally {
    closeSync(fd);
  }
  return { rollout: reader.end(), bytes: reader.bytes };
}
