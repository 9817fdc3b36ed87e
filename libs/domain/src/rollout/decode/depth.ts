// Values from untrusted lines may nest arbitrarily deep; JSON.parse copes, but recursive
// walks (JSON.stringify among them) overflow the stack, so depth is measured without recursion.

/** Deepest nesting a value may have for its JSON text to be rebuilt. */
export const MAX_VALUE_DEPTH = 256;

/** True when `value` nests arrays or objects more than `max` levels deep. */
export function nestsDeeperThan(value: unknown, max: number): boolean {
  if (typeof value !== "object" || value === null) return false;
  const stack: [object, number][] = [[value, 1]];
  for (let top = stack.pop(); top !== undefined; top = stack.pop()) {
    const [node, depth] = top;
    if (depth > max) return true;
    const children: unknown[] = Array.isArray(node) ? node : Object.values(node);
    for (const child of children) if (typeof child === "object" && child !== null) stack.push([child, depth + 1]);
  }
  return false;
}

/** JSON text of `value`, or null when it nests deeper than {@link MAX_VALUE_DEPTH}. */
export function boundedStringify(value: unknown): string | null {
  return nestsDeeperThan(value, MAX_VALUE_DEPTH) ? null : JSON.stringify(value);
}
