import { HEAD_MAX_BYTES } from "./vocabulary.js";
import { isObject, parseJson, str, type JsonObject } from "./json.js";
import { isPatchCall, patchTargets } from "./patch-targets.js";

/** The body-free summary of what a call asked for. */
export interface CallHead {
  /** Command text (or patch head) cut to {@link HEAD_MAX_BYTES} UTF-8 bytes. */
  readonly head: string;
  /** Files a patch body touches. */
  readonly targets: readonly string[];
  /** True for a write to a running process that sends nothing: a poll for output. */
  readonly stdinPoll: boolean;
}

const SHELLS = new Set(["bash", "sh", "zsh", "dash", "fish", "pwsh", "powershell", "cmd", "cmd.exe", "pwsh.exe", "powershell.exe"]);
const SCRIPT_FLAGS = new Set(["-c", "-lc", "-ic", "/c", "-command", "-Command"]);
const encoder = new TextEncoder();
const decoder = new TextDecoder();

/** Cuts text to at most `max` UTF-8 bytes without splitting a character. */
export function truncateUtf8(text: string, max: number = HEAD_MAX_BYTES): string {
  // No character takes more than 3 UTF-8 bytes per UTF-16 unit, so short text is within bounds.
  if (text.length * 3 <= max) return text;
  // Only the first `max` units can contribute to the first `max` bytes.
  let prefix = text.slice(0, max);
  const last = prefix.charCodeAt(prefix.length - 1);
  // Never keep half of a surrogate pair.
  if (last >= 0xd800 && last <= 0xdbff) prefix = prefix.slice(0, -1);
  const bytes = encoder.encode(prefix);
  if (bytes.length <= max) return prefix;
  let end = max;
  // Back off continuation bytes (10xxxxxx) so the cut lands on a character boundary.
  while (end > 0 && ((bytes[end] ?? 0) & 0xc0) === 0x80) end -= 1;
  return decoder.decode(bytes.subarray(0, end));
}

/** The command line of an argv-style shell call: the script of `bash -lc X`, else argv joined. */
export function argvCommand(argv: readonly unknown[]): string {
  const words = argv.filter((w): w is string => typeof w === "string");
  if (words.length !== argv.length || words.length === 0) return "";
  const shell = (words[0] ?? "").split(/[\\/]/).pop() ?? "";
  const flagAt = words.findIndex((w, i) => i > 0 && SCRIPT_FLAGS.has(w));
  if (SHELLS.has(shell.toLowerCase()) && flagAt > 0 && flagAt === words.length - 2) {
    return words[words.length - 1] ?? "";
  }
  return words.join(" ");
}

function commandField(args: JsonObject): string {
  const command = args["command"];
  if (typeof command === "string" && command.trim() !== "") return command;
  if (Array.isArray(command)) {
    const line = argvCommand(command);
    if (line.trim() !== "") return line;
  }
  for (const key of ["cmd", "input", "patch"]) {
    const v = str(args, key);
    if (v.trim() !== "") return v;
  }
  return "";
}

function headOf(tool: string, body: string, stdinPoll = false): CallHead {
  const text = body.trim();
  return {
    head: truncateUtf8(text),
    targets: isPatchCall(tool, text) ? patchTargets(text) : [],
    stdinPoll,
  };
}

/** Head of a JSON-argument call (`function_call`): string, argv and `cmd` shells, patches, stdin writes. */
export function functionCallHead(tool: string, rawArgs: string): CallHead {
  const args = parseJson(rawArgs);
  if (!isObject(args)) return headOf(tool, "");
  const body = commandField(args);
  if (body === "" && tool === "write_stdin") {
    // A stdin write has no command; the session it targets is what repeats.
    const session = args["session_id"];
    const chars = str(args, "chars");
    const id = typeof session === "number" || typeof session === "string" ? String(session) : "";
    return headOf(tool, id === "" ? "" : `session ${id}`, chars === "");
  }
  return headOf(tool, body);
}

/** Head of a freeform call (`custom_tool_call`), whose input is raw text such as a patch. */
export function freeformCallHead(tool: string, input: string): CallHead {
  return headOf(tool, input);
}

/** Head of a `local_shell_call`, whose action carries an argv. */
export function localShellHead(action: unknown): CallHead {
  if (!isObject(action)) return headOf("local_shell", "");
  const command = action["command"];
  return headOf("local_shell", Array.isArray(command) ? argvCommand(command) : str(action, "command"));
}
