import { test } from "node:test";
import assert from "node:assert/strict";
import fc from "fast-check";
import { argvCommand, freeformCallHead, functionCallHead, localShellHead, truncateUtf8 } from "./command-head.js";
import { patchTargets } from "./patch-targets.js";
import { signatureOf } from "./signature.js";
import { HEAD_MAX_BYTES } from "./vocabulary.js";

test("heads come from string, argv and cmd shells", () => {
  assert.equal(functionCallHead("shell_command", JSON.stringify({ command: "  git status " })).head, "git status", "string command");
  assert.equal(functionCallHead("shell", JSON.stringify({ command: ["bash", "-lc", "rg foo"] })).head, "rg foo", "argv shell script");
  assert.equal(functionCallHead("shell", JSON.stringify({ command: ["ls", "-la"] })).head, "ls -la", "plain argv joined");
  assert.equal(functionCallHead("exec_command", JSON.stringify({ cmd: "sleep 5", yield_time_ms: 1000 })).head, "sleep 5", "unified cmd");
  assert.equal(functionCallHead("shell", "not json").head, "", "undecodable arguments give an empty head");
  assert.equal(localShellHead({ type: "exec", command: ["/bin/zsh", "-c", "make test"] }).head, "make test", "local shell argv");
  assert.equal(argvCommand(["pwsh", "-Command", "Get-Item x"]), "Get-Item x", "powershell script");
});

test("write_stdin heads name the session and empty writes are polls", () => {
  const poll = functionCallHead("write_stdin", JSON.stringify({ session_id: 7, chars: "" }));
  assert.deepEqual(poll, { head: "session 7", targets: [], stdinPoll: true }, "poll");
  const send = functionCallHead("write_stdin", JSON.stringify({ session_id: 7, chars: "y\n" }));
  assert.equal(send.stdinPoll, false, "a write that sends input is not a poll");
});

test("heads are cut at 256 bytes on a character boundary", () => {
  const long = "é".repeat(200);
  const head = truncateUtf8(long);
  assert.ok(new TextEncoder().encode(head).length <= HEAD_MAX_BYTES, "within the byte bound");
  assert.equal(head, "é".repeat(128), "no split character");
  assert.equal(truncateUtf8("a" + "€".repeat(100)).length, 86, "three-byte characters cut cleanly");
  assert.equal(truncateUtf8("x".repeat(300)), "x".repeat(256), "ascii cut at 256");
  const emoji = truncateUtf8("a".repeat(254) + "\u{1F600}b");
  assert.equal(emoji, "a".repeat(254), "a four-byte character that does not fit is dropped whole");
  assert.equal(truncateUtf8("a".repeat(252) + "\u{1F600}b"), "a".repeat(252) + "\u{1F600}", "one that fits is kept");
});

test("patch targets come from freeform and JSON apply_patch and from heredoc shells", () => {
  const patch = "*** Begin Patch\n*** Update File: src/a.ts\n@@\n-x\n+y\n*** Add File: b.md\n+z\n*** Delete File: old.txt\n*** End Patch";
  assert.deepEqual(freeformCallHead("apply_patch", patch).targets, ["src/a.ts", "b.md", "old.txt"], "freeform");
  assert.deepEqual(
    functionCallHead("apply_patch", JSON.stringify({ input: patch })).targets,
    ["src/a.ts", "b.md", "old.txt"],
    "json input",
  );
  assert.deepEqual(
    functionCallHead("shell_command", JSON.stringify({ command: `apply_patch <<'EOF'\n${patch}\nEOF` })).targets.length,
    3,
    "heredoc",
  );
  assert.deepEqual(
    functionCallHead("shell_command", JSON.stringify({ command: "echo '*** Update File: x'" })).targets,
    [],
    "no patch marker, no targets",
  );
  assert.deepEqual(patchTargets("*** Update File: a\r\n*** Update File: a\n"), ["a", "a"], "duplicates kept, CR stripped");
});

test("signatures are FNV-1a over tool, zero byte and head", () => {
  assert.equal(signatureOf("", ""), "050c5d1f", "FNV-1a of a single zero byte");
  assert.notEqual(signatureOf("a", "b"), signatureOf("ab", ""), "the zero byte separates tool from head");
  assert.match(signatureOf("shell", "ls"), /^[0-9a-f]{8}$/, "8 hex digits");
});

// FNV-1a as specified: every UTF-8 byte of tool, a zero byte, every byte of head.
function fnvOfBytes(tool: string, head: string): string {
  let h = 0x811c9dc5;
  for (const b of [...new TextEncoder().encode(tool), 0, ...new TextEncoder().encode(head)]) h = Math.imul(h ^ b, 0x01000193) >>> 0;
  return h.toString(16).padStart(8, "0");
}

test("property: the signature hashes the UTF-8 bytes, for ASCII and any other text alike", () => {
  const text = fc.oneof(fc.string(), fc.string({ unit: "grapheme" }), fc.string({ unit: "binary" }));
  fc.assert(
    fc.property(text, text, (tool, head) => {
      assert.equal(signatureOf(tool, head), fnvOfBytes(tool, head), `${tool} / ${head}`);
    }),
    { numRuns: 2000 },
  );
});
