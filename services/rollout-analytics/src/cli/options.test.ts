import assert from "node:assert/strict";
import { test } from "node:test";
import { RolloutError } from "@crs/domain/rollout";
import manifest from "../../package.json" with { type: "json" };
import { AnalyticsError, badField } from "../errors.js";
import { cliFailure } from "./error-line.js";
import { parseInstant } from "./options.js";
import { buildProgram, runCli } from "./program.js";
import { captureIo } from "./test-support.js";

test("--now refuses a date that does not exist and a time without an offset, instead of rolling over or guessing", () => {
  assert.equal(parseInstant("--now", "2026-02-28"), Date.UTC(2026, 1, 28), "a date is its UTC midnight");
  assert.equal(parseInstant("--now", "2026-02-28T12:00:00.5+01:00"), Date.UTC(2026, 1, 28, 11, 0, 0, 500), "an offset is honoured");
  assert.equal(parseInstant("--now", "1767225600000"), 1_767_225_600_000, "Unix milliseconds");
  for (const bad of ["2026-02-30", "2026-02-30T00:00:00Z", "2026-04-01T12:00:00", "2026-13-01", "yesterday"])
    assert.throws(
      () => parseInstant("--now", bad),
      (e: unknown) => e instanceof AnalyticsError && e.message.includes("--now"),
      bad,
    );
});

test("commander's own refusals (unknown option or command, missing argument or value, one argument too many) print one rollouts: line naming the flag or argument, exit 2, instead of commander's 'error: ' lines", async () => {
  const cases: [string[], RegExp][] = [
    [["scan", "store", "--bogus"], /^rollouts: --bogus is not an option\n$/],
    [["scan", "store", "--reprot", "health"], /^rollouts: --reprot is not an option; did you mean --report\?\n$/],
    [["scan"], /^rollouts: <dir> is required\n$/],
    [["rollout"], /^rollouts: <file> is required\n$/],
    [["scan", "store", "--top"], /^rollouts: --top needs a value <n>\n$/],
    [["scan", "my", "store"], /^rollouts: "store" is one argument too many: scan takes <dir> \(quote a path that has spaces\)\n$/],
    [
      ["scna", "store"],
      /^rollouts: <command> "scna" is not a command: one of scan, usage, rollout, retention, generate; did you mean scan\?\n$/,
    ],
    [["--verison"], /^rollouts: --verison is not an option; did you mean --version\?\n$/],
    // No command at all: the help, then the line saying what is missing.
    [[], /\nrollouts: <command> is required: one of scan, usage, rollout, retention, generate\n$/],
  ];
  for (const [args, line] of cases) {
    const io = captureIo();
    assert.equal(await runCli(args, io), 2, `exit 2 for ${args.join(" ")}: ${io.stderr}`);
    assert.match(io.stderr, line, args.join(" "));
    assert.ok(!/^error:/m.test(io.stderr), `no commander-worded line for ${args.join(" ")}: ${io.stderr}`);
    assert.equal(io.stdout, "", "no report");
  }
  const version = captureIo();
  assert.equal(await runCli(["--version"], version), 0, version.stderr);
  assert.equal(version.stdout, `${manifest.version}\n`, "--version prints the package's version alone");
  const help = captureIo();
  assert.equal(await runCli(["scan", "--help"], help), 0, "asked-for help is no error");
  assert.equal(help.stderr, "");
});

test("an error of the rollout domain or of the service prints under the command's one prefix, not 'rollouts: rollout:' or 'rollout-analytics:'", () => {
  const program = buildProgram(captureIo());
  const overflow = new RolloutError("INVALID_ARGUMENT", "totals.bytes: the sum passes 2^64 - 1", { field: "totals.bytes" });
  assert.deepEqual(cliFailure(program, overflow), { text: "totals.bytes: the sum passes 2^64 - 1", exitCode: 1 }, "a failed run, 1");
  assert.deepEqual(cliFailure(program, badField("--max", "must be between 0 and 10")), {
    text: "--max must be between 0 and 10",
    exitCode: 2,
  });
  assert.deepEqual(
    cliFailure(program, new Error("EIO: i/o error, read\n    at somewhere")),
    { text: "EIO: i/o error, read at somewhere", exitCode: 1 },
    "one line",
  );
});
