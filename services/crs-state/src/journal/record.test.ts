import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { test } from "node:test";
import { StateEngine } from "@crs/domain/state";
import { decodeFrame, encodeFrame, FRAME_HEADER_BYTES } from "./frame.js";
import { decodeRecord, encodeRecord, type JournalRecord } from "./record.js";

/** The fixture holds records as `[uint32 BE length][record bytes]`, one after another. */
function fixtureRecords(): Uint8Array[] {
  const file = readFileSync(new URL("./testdata/journal-v1.bin", import.meta.url));
  const out: Uint8Array[] = [];
  for (let at = 0; at < file.length; ) {
    const len = file.readUInt32BE(at);
    out.push(new Uint8Array(file.subarray(at + 4, at + 4 + len)));
    at += 4 + len;
  }
  return out;
}

test("the golden journal-v1 fixture still decodes, replays and re-encodes to the same bytes", () => {
  const stored = fixtureRecords();
  assert.equal(stored.length, 3, "three records in the fixture");
  const records: JournalRecord[] = stored.map((bytes, i) => {
    const r = decodeRecord(bytes, i + 1);
    assert.ok(r.ok, `record ${i + 1} decodes`);
    return r.value;
  });
  assert.equal(records[0]?.event?.type, "similarity_recorded");
  assert.equal(records[1]?.request?.requestId, "req-1", "request facts are kept with the mutation");
  assert.equal(Buffer.from(records[1]?.request?.answer ?? "", "base64").toString(), "answer");
  assert.equal(records[2]?.event, null, "a remembered no-op request has no event");
  const engine = new StateEngine();
  for (const r of records) if (r.event !== null) engine.replay(r.event);
  assert.equal(engine.generation, 2, "the events replay to generation 2");
  assert.equal(engine.snapshot().similarity.distance("node-a", "node-b"), 0.25);
  records.forEach((r, i) => assert.deepEqual(encodeRecord(r), stored[i], `record ${i + 1} re-encodes byte for byte`));
});

test("a record cut at any byte is torn, never decoded", () => {
  const [full] = fixtureRecords();
  assert.ok(full !== undefined);
  for (let cut = 0; cut < full.length; cut++) {
    const r = decodeRecord(full.subarray(0, cut), 1);
    assert.ok(!r.ok && r.fault === "torn", `cut at ${cut} is torn`);
  }
});

test("a flipped bit anywhere in a record is corruption, not a torn write", () => {
  const [full] = fixtureRecords();
  assert.ok(full !== undefined);
  for (let byte = 0; byte < full.length; byte++) {
    const damaged = full.slice();
    damaged[byte] = (damaged[byte] as number) ^ 0x10;
    const r = decodeRecord(damaged, 1);
    assert.ok(!r.ok, `flip in byte ${byte} is detected`);
    // A flip in the length field can make the frame look short (torn) or long (corrupt); elsewhere it is a CRC mismatch.
    if (byte < 2 || byte >= 6) assert.equal(r.fault, "corrupt", `flip in byte ${byte} is corruption`);
  }
});

test("refuses a record filed under another sequence number", () => {
  const [full] = fixtureRecords();
  assert.ok(full !== undefined);
  const r = decodeRecord(full, 7);
  assert.ok(!r.ok && r.fault === "corrupt" && r.reason.includes("seq"), "misfiled record refused");
});

test("a frame of another kind is refused even with a valid CRC", () => {
  const frame = encodeFrame("stateSnapshot", new TextEncoder().encode("{}"));
  const r = decodeFrame("journalRecord", frame);
  assert.ok(!r.ok && r.fault === "corrupt", "kind is checked");
  assert.equal(frame.length, FRAME_HEADER_BYTES + 2);
});
