import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { test } from "node:test";
import { fromDocument, DEFAULT_STATE_CONFIG, STATE_DOCUMENT_FORMAT } from "@crs/domain/state";
import { decodeFrame } from "../journal/frame.js";
import { encodeJsonFrame } from "../journal/json-frame.js";
import { CHECKPOINT_FORMAT, decodeCheckpoint, encodeCheckpoint, summarizeCheckpoint, type CheckpointValues } from "./checkpoint-record.js";

// Both fixtures hold checkpoint "golden" of one project at generation 1 (one similarity pair),
// taken at 1780000000123: `checkpoint-v1.bin` as format 1 wrote it (the whole value),
// `checkpoint-v2.bin` as format 2 writes it, `[uint32 BE length][head][uint32 BE length][body]`.
const v1 = (): Uint8Array => new Uint8Array(readFileSync(new URL("./testdata/checkpoint-v1.bin", import.meta.url)));

function v2(): Required<CheckpointValues> {
  const file = readFileSync(new URL("./testdata/checkpoint-v2.bin", import.meta.url));
  const headBytes = file.readUInt32BE(0);
  const head = new Uint8Array(file.subarray(4, 4 + headBytes));
  const body = new Uint8Array(file.subarray(8 + headBytes, 8 + headBytes + file.readUInt32BE(4 + headBytes)));
  return { head, body };
}

function flip(bytes: Uint8Array, at: number): Uint8Array {
  const out = bytes.slice();
  out[at] = (out[at] as number) ^ 0x10;
  return out;
}

// A head whose CRC is good but whose content is `edit` of the golden head's.
function reheaded(edit: (head: Record<string, unknown>) => Record<string, unknown>): Uint8Array {
  const frame = decodeFrame("checkpoint", v2().head);
  assert.ok(frame.ok);
  return encodeJsonFrame("checkpoint", edit(JSON.parse(Buffer.from(frame.payload).toString("utf8")) as Record<string, unknown>));
}

test("the golden format-1 checkpoint still decodes whole, and re-encodes to the golden format-2 head and body byte for byte", () => {
  const old = decodeCheckpoint({ head: v1() }, "golden");
  assert.ok(old.ok, "format 1 decodes");
  const { checkpoint, summary } = old.value;
  assert.deepEqual([checkpoint.generation, checkpoint.createdAt], [1, 1780000000123]);
  assert.deepEqual(
    checkpoint.document.similarity.map((p) => [p.from, p.to, p.distance]),
    [["node-a", "node-b", 0.25]],
  );
  assert.equal(fromDocument(checkpoint.document, DEFAULT_STATE_CONFIG).generation, 1, "its state restores");
  assert.equal(summary.sizeBytes, v1().length, "a format-1 checkpoint's stored size is its one value");
  assert.deepEqual(encodeCheckpoint(checkpoint), v2(), "format 2, byte for byte");
});

test("the golden format-2 checkpoint decodes to the same checkpoint, and its head alone to the same listing row", () => {
  const stored = v2();
  const full = decodeCheckpoint(stored, "golden");
  const old = decodeCheckpoint({ head: v1() }, "golden");
  assert.ok(full.ok && old.ok);
  assert.deepEqual(full.value.checkpoint, old.value.checkpoint, "the same checkpoint either way");
  const listed = summarizeCheckpoint(stored.head, "golden");
  assert.ok(listed.ok);
  assert.deepEqual(listed.value, full.value.summary, "the head says what the whole checkpoint says");
  assert.equal(listed.value.sizeBytes, stored.head.length + stored.body.length, "stored size: head and body");
  const listedOld = summarizeCheckpoint(v1(), "golden");
  assert.ok(listedOld.ok);
  assert.deepEqual({ ...listed.value, sizeBytes: 0 }, { ...listedOld.value, sizeBytes: 0 }, "format 1 lists the same row but for its size");
  assert.ok(stored.head.length < 200, `the head is small (${stored.head.length} bytes)`);
});

test("a flipped bit anywhere in a head is seen by the listing, without the body", () => {
  const { head } = v2();
  for (let at = 0; at < head.length; at++) {
    const d = summarizeCheckpoint(flip(head, at), "golden");
    assert.ok(!d.ok, `flip in byte ${at} is seen`);
  }
});

test("a flipped bit anywhere in a body is seen by a read of the whole checkpoint, though not by the listing", () => {
  const { head, body } = v2();
  // Every byte of the frame header, then a stride through the payload (each flip re-checks 17 KB).
  const positions = [...Array.from({ length: 10 }, (_, i) => i), ...Array.from({ length: 200 }, (_, i) => 10 + i * 85)];
  for (const at of positions.filter((p) => p < body.length)) {
    const d = decodeCheckpoint({ head, body: flip(body, at) }, "golden");
    assert.ok(!d.ok && d.fault === "corrupt", `flip in body byte ${at} is corruption`);
  }
  assert.ok(summarizeCheckpoint(head, "golden").ok, "the head alone still reads");
});

test("a head without its body, with a body of another length, or with another checkpoint's body is damaged", () => {
  const { head, body } = v2();
  const missing = decodeCheckpoint({ head }, "golden");
  assert.ok(!missing.ok && missing.fault === "corrupt" && /body is missing/.test(missing.reason));
  const short = decodeCheckpoint({ head, body: body.subarray(0, body.length - 1) }, "golden");
  assert.ok(!short.ok && short.fault === "corrupt" && /body has 17194 bytes, its head says 17195/.test(short.reason));
  const old = decodeCheckpoint({ head: v1() }, "golden");
  assert.ok(old.ok);
  // Another checkpoint's body of the very same length: only the CRC its head names tells them apart.
  const { document } = old.value.checkpoint;
  const similarity = document.similarity.map((p) => ({ ...p, distance: 0.75 }));
  const other = encodeCheckpoint({ ...old.value.checkpoint, document: { ...document, similarity } });
  assert.equal(other.body.length, body.length);
  const swapped = decodeCheckpoint({ head, body: other.body }, "golden");
  assert.ok(!swapped.ok && /not the one its head names/.test(swapped.reason), "a body is bound to its head");
});

test("a head filed under another id, with a field out of range, or in an unknown format is refused; a newer one is unsupported", () => {
  const { head, body } = v2();
  const misfiled = summarizeCheckpoint(head, "other");
  assert.ok(!misfiled.ok && misfiled.fault === "corrupt" && /filed under other/.test(misfiled.reason));
  for (const field of ["generation", "createdAt", "documentFormat", "bodyBytes", "bodyCrc"]) {
    const bad = summarizeCheckpoint(
      reheaded((h) => ({ ...h, [field]: -1 })),
      "golden",
    );
    assert.ok(!bad.ok && bad.fault === "corrupt" && bad.reason.includes(field), `${field} is checked`);
  }
  const newer = decodeCheckpoint({ head: reheaded((h) => ({ ...h, format: CHECKPOINT_FORMAT + 1 })), body }, "golden");
  assert.ok(!newer.ok && newer.fault === "unsupported", "a newer head is a newer server's");
  const unknown = summarizeCheckpoint(
    reheaded((h) => ({ ...h, format: 0 })),
    "golden",
  );
  assert.ok(!unknown.ok && unknown.fault === "corrupt");
});

test("a head naming a newer state document is listed as unsupported, with its fields", () => {
  const d = summarizeCheckpoint(
    reheaded((h) => ({ ...h, documentFormat: STATE_DOCUMENT_FORMAT + 1 })),
    "golden",
  );
  assert.ok(d.ok);
  assert.deepEqual([d.value.unsupportedDocument, d.value.generation], [true, 1]);
});
