import { closeSync, openSync, readSync } from "node:fs";
import { open } from "node:fs/promises";
import { setImmediate as nextTurn } from "node:timers/promises";
import { RolloutFold, type DecodedRollout, type RolloutCensus, type RolloutFoldOptions } from "@crs/domain/rollout";
import { RolloutReader, type ReaderLimits } from "./rollout-reader.js";

/** Bytes read from a file at a time; one buffer is reused for the whole file. */
export const READ_CHUNK_BYTES = 1024 * 1024;

/** A rollout file decoded, with the bytes read. */
export interface ReadRollout {
  readonly rollout: DecodedRollout;
  readonly bytes: number;
}

/** A rollout file folded as it was read: its census, the fold to finish, and the bytes read. */
export interface FoldedFile {
  readonly census: RolloutCensus;
  readonly fold: RolloutFold;
  readonly bytes: number;
}

/**
 * The bytes of a file, FIFO or character device read in order, chunk by chunk: each chunk is a
 * view of one buffer, valid until the next is taken. I/O errors reject.
 */
export async function* readChunks(path: string, signal?: AbortSignal): AsyncGenerator<Buffer, void, undefined> {
  const handle = await open(path, "r");
  try {
    const buffer = Buffer.allocUnsafe(READ_CHUNK_BYTES);
    for (;;) {
      signal?.throwIfAborted();
      const { bytesRead } = await handle.read(buffer, 0, buffer.length, null);
      if (bytesRead === 0) break;
      yield buffer.subarray(0, bytesRead);
    }
  } finally {
    await handle.close();
  }
}

async function pump(path: string, reader: RolloutReader, signal?: AbortSignal): Promise<DecodedRollout> {
  for await (const chunk of readChunks(path, signal)) reader.push(chunk);
  return reader.end();
}

// Chunk buffers of blocking reads, kept for the next file. One serves a thread whose reads never
// interleave; reads that take turns may, and each holds its own while it reads.
const spareBuffers: Buffer[] = [];

/**
 * The bytes of a file read with blocking reads, chunk by chunk: each chunk is a view of one
 * buffer, valid until the next is taken, and the buffer serves later files once this one is read
 * (or left). I/O errors throw.
 */
export function* fileChunks(path: string): Generator<Buffer, void, undefined> {
  const buffer = spareBuffers.pop() ?? Buffer.allocUnsafe(READ_CHUNK_BYTES);
  try {
    const fd = openSync(path, "r");
    try {
      for (let n = readSync(fd, buffer, 0, buffer.length, null); n > 0; n = readSync(fd, buffer, 0, buffer.length, null))
        yield buffer.subarray(0, n);
    } finally {
      closeSync(fd);
    }
  } finally {
    spareBuffers.push(buffer);
  }
}

function pumpSync(path: string, reader: RolloutReader): DecodedRollout {
  for (const chunk of fileChunks(path)) reader.push(chunk);
  return reader.end();
}

/** Bytes a thread that serves other work reads with blocking reads before it gives its event loop a turn. */
export const TURN_BYTES = 8 * READ_CHUNK_BYTES;

async function pumpInTurns(path: string, reader: RolloutReader, signal?: AbortSignal): Promise<DecodedRollout> {
  let sinceTurn = 0;
  for (const chunk of fileChunks(path)) {
    reader.push(chunk);
    sinceTurn += chunk.length;
    if (sinceTurn >= TURN_BYTES) {
      sinceTurn = 0;
      await nextTurn();
      signal?.throwIfAborted();
    }
  }
  return reader.end();
}

function folding(limits?: ReaderLimits, options?: RolloutFoldOptions): { reader: RolloutReader; fold: RolloutFold } {
  const fold = new RolloutFold(options);
  return { reader: new RolloutReader(limits, (r) => fold.push(r)), fold };
}

function censusOf({ records: _, ...census }: DecodedRollout): RolloutCensus {
  return census;
}

/** Reads and decodes one rollout file in fixed-size chunks, keeping its records; I/O errors reject. */
export async function readRolloutFile(path: string, limits?: ReaderLimits, signal?: AbortSignal): Promise<ReadRollout> {
  const reader = new RolloutReader(limits);
  return { rollout: await pump(path, reader, signal), bytes: reader.bytes };
}

/**
 * Reads and decodes one rollout file with blocking reads, keeping its records, for a worker
 * thread that has nothing else to do meanwhile (each awaited read would cost a round trip through
 * the event loop and the thread pool); I/O errors throw.
 */
export function readRolloutFileSync(path: string, limits?: ReaderLimits): ReadRollout {
  const reader = new RolloutReader(limits);
  return { rollout: pumpSync(path, reader), bytes: reader.bytes };
}

/** How a file is folded: the reader's limits and the fold's options. */
export interface FoldFileOptions {
  readonly limits?: ReaderLimits;
  /** What the fold lists; a scan, which keeps only totals, lists nothing (`maxListed: 0`). */
  readonly fold?: RolloutFoldOptions;
  readonly signal?: AbortSignal;
}

/** Reads one rollout file, folding each record as it decodes (none are kept); I/O errors reject. */
export async function foldRolloutFile(path: string, options: FoldFileOptions = {}): Promise<FoldedFile> {
  const { reader, fold } = folding(options.limits, options.fold);
  const signal = options.signal;
  return { census: censusOf(await pump(path, reader, signal)), fold, bytes: reader.bytes };
}

/**
 * {@link foldRolloutFile} with blocking reads, for a thread that scans beside its workers: its
 * event loop gets a turn every few MiB, so their replies are taken even inside a large file.
 */
export async function foldRolloutFileInTurns(path: string, options: FoldFileOptions = {}): Promise<FoldedFile> {
  const { reader, fold } = folding(options.limits, options.fold);
  return { census: censusOf(await pumpInTurns(path, reader, options.signal)), fold, bytes: reader.bytes };
}

/** {@link foldRolloutFile} with blocking reads, for a worker thread; I/O errors throw. */
export function foldRolloutFileSync(path: string, options: FoldFileOptions = {}): FoldedFile {
  const { reader, fold } = folding(options.limits, options.fold);
  return { census: censusOf(pumpSync(path, reader)), fold, bytes: reader.bytes };
}

/** A rollout folded from a stream of chunks, with the time of its latest record. */
export interface FoldedStream extends FoldedFile {
  /**
   * Unix ms of the latest analysed record that carries a time, or null when none does. A stream
   * has no modification time of its own; this is what a file the producer wrote would have had.
   */
  readonly latestRecordMs: number | null;
}

/**
 * Folds a rollout from chunks as they come (a pipe, standard input or {@link readChunks}), each
 * taken before the next is asked for, so a source may reuse its buffer; the source's errors reject.
 */
export async function foldRolloutStream(chunks: AsyncIterable<Uint8Array>, options: FoldFileOptions = {}): Promise<FoldedStream> {
  const fold = new RolloutFold(options.fold);
  let latest: number | null = null;
  const reader = new RolloutReader(options.limits, (r) => {
    if (r.tsMs !== null && (latest === null || r.tsMs > latest)) latest = r.tsMs;
    fold.push(r);
  });
  for await (const chunk of chunks) {
    options.signal?.throwIfAborted();
    reader.push(chunk);
  }
  return { census: censusOf(reader.end()), fold, bytes: reader.bytes, latestRecordMs: latest };
}
