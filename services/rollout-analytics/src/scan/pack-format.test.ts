import assert from "node:assert/strict";
import { test } from "node:test";
import { entryLine, entryText } from "./pack-format.js";

test("an entry line reads back as the text it was made from", () => {
  for (const text of ['{"a":1}', "", '{"model":"gpt-5 ✓","n":[1,2]}']) assert.equal(entryText(entryLine(text)), text);
});

test("an entry line changed anywhere, in its text or its checksum, reads as missing, not as other JSON", () => {
  const line = entryLine('{"totals":{"rollouts":1,"tasks":12}}');
  for (let i = 0; i < line.length; i += 1) {
    const code = line.charCodeAt(i);
    // One bit flipped, as on a damaged disk; a flip that leaves a digit or letter a digit or letter too.
    const flipped = `${line.slice(0, i)}${String.fromCharCode(code ^ 1)}${line.slice(i + 1)}`;
    assert.equal(entryText(flipped), null, `bit 0 of character ${i} flipped`);
  }
  assert.equal(entryText(line.replace('"rollouts":1', '"rollouts":"1"')), null, "a hand edit");
  assert.equal(entryText(line.slice(9)), null, "a line without its checksum, as an older cache wrote it");
  assert.equal(entryText(line.slice(0, 20)), null, "a torn line");
});
