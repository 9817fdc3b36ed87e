import assert from "node:assert/strict";
import { Writable } from "node:stream";
import { test } from "node:test";
import { scanProgressView } from "./progress.js";
import { captureIo } from "./test-support.js";

// A stand-in terminal: a writable stream with the cursor calls a TTY stream has.
// A terminal method's answer: it runs the callback it was given, then reports the write as flushed.
function called(cb: (() => void) | undefined): true {
  cb?.();
  return true;
}

function fakeTerminal(): NodeJS.WriteStream & { text: string } {
  const out = new Writable({
    write(chunk: Buffer, _enc, done) {
      (out as unknown as { text: string }).text += chunk.toString();
      done();
    },
  }) as unknown as NodeJS.WriteStream & { text: string };
  Object.assign(out, {
    text: "",
    isTTY: true,
    columns: 160,
    cursorTo: (_x: number, _y?: unknown, cb?: () => void) => called(typeof _y === "function" ? (_y as () => void) : cb),
    clearLine: (_d: number, cb?: () => void) => called(cb),
    moveCursor: (_x: number, _y: number, cb?: () => void) => called(cb),
    clearScreenDown: (cb?: () => void) => called(cb),
  });
  return out;
}

test("a terminal gets a bar with files, bytes, rate and ETA; a pipe gets nothing", () => {
  const terminal = fakeTerminal();
  const view = scanProgressView({ ...captureIo(), errIsTty: true }, terminal);
  view.update({ filesDone: 1, filesTotal: 4, bytesDone: 2_000_000, bytesTotal: 8_000_000 });
  view.update({ filesDone: 4, filesTotal: 4, bytesDone: 8_000_000, bytesTotal: 8_000_000 });
  view.stop();
  assert.match(terminal.text, /1\/4 files \| 2\.0\/8\.0 MB \| [\d.]+ MB\/s \| ETA /, terminal.text);
  const piped = fakeTerminal();
  const quiet = scanProgressView({ ...captureIo(), errIsTty: false }, piped);
  quiet.update({ filesDone: 1, filesTotal: 1, bytesDone: 10, bytesTotal: 10 });
  quiet.stop();
  assert.equal(piped.text, "", "nothing on a pipe");
});
