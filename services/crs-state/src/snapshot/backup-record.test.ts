import assert from "node:assert/strict";
import { createHash } from "node:crypto";
import { test } from "node:test";
import { setImmediate as nextTurn } from "node:timers/promises";
import { gzipSync } from "node:zlib";
import { DEFAULT_STATE_CONFIG, StateEngine, toDocument } from "@crs/domain/state";
import { encodeBackup, verifyBackup } from "./backup-record.js";

const sha256 = (bytes: Uint8Array): string => createHash("sha256").update(bytes).digest("hex");

/** A state document of `pairs` similarity pairs with ids that compress poorly. */
function documentOf(pairs: number) {
  const engine = new StateEngine({ now: () => 1_780_000_000_000 });
  for (let i = 0; i < pairs; i++)
    engine.recordSimilarity({ a: `a-${sha256(Buffer.from(`a${i}`))}`, b: `b-${sha256(Buffer.from(`b${i}`))}`, distance: 0.5 });
  return toDocument(engine.checkpoint().state);
}

const fields = {
  backupId: "backup-1",
  projectId: "p",
  projectUid: "uid-1",
  generation: 0,
  createdAt: 1_780_000_000_000,
  label: "",
  projectFingerprint: "",
};

test("lets the event loop turn while a backup compresses and decompresses, instead of stalling the server, and writes the same gzip bytes as before", async () => {
  const document = documentOf(3000);
  let turns = 0;
  let counting = true;
  const count = (async () => {
    while (counting) {
      await nextTurn();
      turns++;
    }
  })();
  const encoded = await encodeBackup(document, { ...fields, generation: document.generation });
  const whileEncoding = turns;
  const verdict = await verifyBackup(encoded.meta, encoded.body, DEFAULT_STATE_CONFIG, {
    now: fields.createdAt,
    maxAgeMs: 0,
    projectFingerprint: "",
  });
  const whileVerifying = turns - whileEncoding;
  counting = false;
  await count;
  assert.ok(whileEncoding > 0, "the event loop turned while the backup compressed");
  assert.ok(whileVerifying > 0, "and while it decompressed");
  const raw = new TextEncoder().encode(JSON.stringify(document));
  assert.deepEqual(Buffer.from(encoded.body), gzipSync(raw), "the backup format is unchanged: the same gzip bytes");
  assert.equal(encoded.meta.contentHash, sha256(gzipSync(raw)), "so its content hash is too");
  assert.equal(verdict.failed, undefined, "the backup verifies");
  assert.deepEqual(verdict.document, document);
});
