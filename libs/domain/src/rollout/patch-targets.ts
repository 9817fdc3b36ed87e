const TARGET_LINE = /^\*\*\* (?:Update|Add|Delete) File:(.*)$/;
const PATCH_MARKER = "*** Begin Patch";

/** True when a call's tool name or body marks it as a patch. */
export function isPatchCall(tool: string, body: string): boolean {
  return tool.toLowerCase().includes("patch") || body.includes(PATCH_MARKER);
}

/** Paths named by the file headers of a patch body, in order, duplicates kept. */
export function patchTargets(body: string): string[] {
  const out: string[] = [];
  for (const line of body.split("\n")) {
    const m = TARGET_LINE.exec(line.replace(/\r$/, ""));
    const path = m?.[1]?.trim();
    if (path) out.push(path);
  }
  return out;
}
