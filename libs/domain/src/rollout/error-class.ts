/** Cause class of an aborted task. */
export type AbortClass = "other_recorded" | "process_death_tail" | "interrupted" | "unrecorded";

/** Provider status class named in a final agent message. */
export type StatusClass = "http_5xx" | "http_429" | "http_400";

/** Classifies an abort from its recorded reason and whether it ends a torn rollout. */
export function classifyAbort(reason: string, atTornTail: boolean): AbortClass {
  const r = reason.trim().toLowerCase();
  if (r !== "" && r !== "interrupted") return "other_recorded";
  if (atTornTail) return "process_death_tail";
  return r === "interrupted" ? "interrupted" : "unrecorded";
}

// Every pattern is anchored on a code next to "http" / "status" or on a fixed phrase, so
// a bare number in prose (a line count, a port) never reads as a provider status.
const HTTP = String.raw`\bhttp[ _-]?`;
// Whitespace is the reference engine's ASCII set (tab, line feed, form feed, carriage return,
// space): a no-break or other Unicode space does not join "status" to a code.
const STATUS = String.raw`\bstatus(?:[ _-]?code)?[\t\n\f\r :=_-]*`;
// Inside a status phrase only spaces, underscores and hyphens join: a colon or a line break
// after the code reads as prose that happens to follow a number, as the reference reads it.
const JOIN = "[ _-]";

/** A code followed by one of its reason phrases, whose words may also run together. */
function codePhrase(code: string, phrases: readonly string[]): RegExp {
  const alternatives = phrases.map((p) => p.split(" ").join(`${JOIN}?`)).join("|");
  return new RegExp(String.raw`\b${code}${JOIN}+(?:${alternatives})\b`, "i");
}

const STATUS_PATTERNS: readonly (readonly [StatusClass, readonly RegExp[]])[] = [
  [
    "http_5xx",
    [
      new RegExp(String.raw`(?:${HTTP}|${STATUS})(?:5\d\d|5xx)\b`, "i"),
      /\b5xx\b/i,
      codePhrase("50[234]", ["bad gateway", "gateway timeout", "service unavailable", "internal server error"]),
    ],
  ],
  ["http_429", [new RegExp(`(?:${HTTP}|${STATUS})429\\b`, "i")]],
  ["http_400", [new RegExp(`(?:${HTTP}|${STATUS})400\\b`, "i"), codePhrase("400", ["bad request"])]],
];

/** Status classes named in a task's final message, in fixed order without duplicates. */
export function classifyStatusClasses(text: string): StatusClass[] {
  if (text === "") return [];
  return STATUS_PATTERNS.filter(([, patterns]) => patterns.some((p) => p.test(text))).map(([cls]) => cls);
}
