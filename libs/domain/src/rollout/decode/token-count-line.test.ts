import assert from "node:assert/strict";
import { test } from "node:test";
import fc from "fast-check";
import { editedTokenLine, producerTokenLine } from "../testing/token-lines.js";
import { decodeLine, decodeLineByParse } from "./decode-line.js";

const utf8 = (bytes: Uint8Array): string => new TextDecoder().decode(bytes);

test("a token_count line read without parsing decodes to the record parsing it makes, or is parsed", () => {
  fc.assert(
    fc.property(editedTokenLine, (bytes) => {
      const text = utf8(bytes);
      assert.deepEqual(decodeLine(text), decodeLineByParse(text));
    }),
    { numRuns: 3000 },
  );
});

test("the producer's token_count lines decode alike, with info or without", () => {
  fc.assert(
    fc.property(producerTokenLine, (line) => {
      assert.deepEqual(decodeLine(line), decodeLineByParse(line));
      assert.deepEqual(decodeLine(`${line}\r`), decodeLineByParse(`${line}\r`));
    }),
    { numRuns: 500 },
  );
});
