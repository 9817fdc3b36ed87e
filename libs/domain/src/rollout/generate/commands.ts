import type { Prng } from "./prng.js";

// The shell commands a generated agent runs, with how they tend to end. Exit codes follow the
// cases the classifier distinguishes: probes that fail on purpose, waits, timeouts, real failures.

/** One command, the exit code it ended with, and how long it ran. */
export interface CommandRun {
  readonly cmd: string;
  readonly exitCode: number;
  readonly timedOut: boolean;
  readonly wallMs: number;
}

const FILES = [
  "src/index.ts",
  "src/server.ts",
  "src/store/journal.ts",
  "README.md",
  "package.json",
  "test/e2e.test.ts",
  "lib/util.go",
  "app/models.py",
];
const WORDS = ["retry", "deadline", "snapshot", "TODO", "cursor", "flush", "backoff", "lease"];

type CommandKind =
  | "search_hit"
  | "search_miss"
  | "read"
  | "git"
  | "merge_probe"
  | "test_pass"
  | "test_fail"
  | "build_timeout"
  | "sleep"
  | "wait"
  | "make_fail";

const WEIGHTS: Readonly<Record<CommandKind, number>> = {
  search_hit: 18,
  search_miss: 7,
  read: 22,
  git: 10,
  merge_probe: 2,
  test_pass: 12,
  test_fail: 7,
  build_timeout: 2,
  sleep: 4,
  wait: 2,
  make_fail: 3,
};

/** Picks a command and its result. `repeat` reuses a failing command to build repeat-failure runs. */
export function pickCommand(rng: Prng, repeat: CommandRun | null): CommandRun {
  if (repeat !== null) return { ...repeat, wallMs: rng.int(200, 4000) };
  const file = rng.pick(FILES);
  const word = rng.pick(WORDS);
  const kind = rng.weighted(WEIGHTS);
  switch (kind) {
    case "search_hit":
      return { cmd: `rg -n "${word}" ${file.split("/")[0]}`, exitCode: 0, timedOut: false, wallMs: rng.int(20, 400) };
    case "search_miss":
      return { cmd: `${rng.pick(["rg", "grep -rn"])} "${word}_${rng.hex(4)}" .`, exitCode: 1, timedOut: false, wallMs: rng.int(20, 600) };
    case "read":
      return {
        cmd: rng.pick([`sed -n 1,${rng.int(40, 200)}p ${file}`, `cat ${file}`, `ls -la ${file.split("/")[0]}`, `wc -l ${file}`]),
        exitCode: 0,
        timedOut: false,
        wallMs: rng.int(5, 120),
      };
    case "git":
      return {
        cmd: rng.pick(["git status --short", "git diff --stat", "git log --oneline -5", `git diff ${file}`]),
        exitCode: 0,
        timedOut: false,
        wallMs: rng.int(10, 300),
      };
    case "merge_probe":
      return { cmd: "git rev-parse -q --verify MERGE_HEAD", exitCode: 1, timedOut: false, wallMs: rng.int(5, 40) };
    case "test_pass":
      return {
        cmd: rng.pick(["pnpm test", "go test ./...", "pytest -q", "cargo test"]),
        exitCode: 0,
        timedOut: false,
        wallMs: rng.int(2000, 90000),
      };
    case "test_fail":
      return {
        cmd: rng.pick(["pnpm test", "go test ./...", "pytest -q", "npm run typecheck"]),
        exitCode: rng.pick([1, 1, 2]),
        timedOut: false,
        wallMs: rng.int(2000, 60000),
      };
    case "build_timeout":
      return {
        cmd: rng.pick(["npm run build", "make all", "cargo build --release"]),
        exitCode: 124,
        timedOut: true,
        wallMs: rng.int(10000, 120000),
      };
    case "sleep":
      return { cmd: `sleep ${rng.int(1, 30)}`, exitCode: 0, timedOut: false, wallMs: rng.int(1000, 30000) };
    case "wait":
      return { cmd: "wait", exitCode: 127, timedOut: false, wallMs: rng.int(100, 5000) };
    case "make_fail":
      return { cmd: rng.pick(["make check", "make lint"]), exitCode: 2, timedOut: false, wallMs: rng.int(500, 20000) };
  }
}

/** Lines of plausible command output (`bytes` long, roughly). */
export function outputBody(rng: Prng, run: CommandRun, bytes: number): string {
  if (run.timedOut) return `command timed out after ${run.wallMs} milliseconds\n`;
  const parts: string[] = [];
  let size = 0;
  while (size < bytes) {
    const line = `${rng.pick(FILES)}:${rng.int(1, 900)}: ${rng.pick(WORDS)} ${rng.hex(rng.int(8, 48))}`;
    parts.push(line);
    size += line.length + 1;
  }
  return parts.join("\n");
}
