/** Deep freezing of plain data, so values handed out by snapshots cannot be edited in place. */

/** Freezes `value` and everything reachable from it; returns it. */
export function deepFreeze<T>(value: T): T {
  if (value !== null && typeof value === "object" && !Object.isFrozen(value)) {
    Object.freeze(value);
    for (const v of Object.values(value as Record<string, unknown>)) deepFreeze(v);
  }
  return value;
}

/**
 * A frozen deep copy of plain data (objects, arrays, primitives) that shares the strings.
 * structuredClone copies every string and builds objects V8 keeps at about twice the size once
 * frozen; a loaded delta history holds one such copy per applied entry. Anything but plain
 * objects, arrays and primitives goes through structuredClone, which also rejects what it did.
 */
export function frozenCopy<T>(value: T): T {
  if (value === null || typeof value !== "object")
    return typeof value === "function" || typeof value === "symbol" ? structuredClone(value) : value;
  if (Array.isArray(value))
    return (
      Object.getPrototypeOf(value) === Array.prototype ? Object.freeze(value.map(frozenCopy)) : deepFreeze(structuredClone(value))
    ) as T;
  const proto = Object.getPrototypeOf(value);
  if (proto !== Object.prototype && proto !== null) return deepFreeze(structuredClone(value));
  const out: Record<string, unknown> = {};
  for (const key of Object.keys(value)) {
    const v = frozenCopy((value as Record<string, unknown>)[key]);
    if (key === "__proto__") Object.defineProperty(out, key, { value: v, enumerable: true, writable: true, configurable: true });
    else out[key] = v;
  }
  return Object.freeze(out) as T;
}

/**
 * `Object.freeze({ ...source, ...changes })`, built by assignment instead: V8 keeps a frozen
 * spread copy at two to four times the size of the same object built this way, and the state
 * keeps one per step, history entry, constraint and clause. An own `__proto__` key stays a
 * plain field, as with a spread.
 */
export function frozenWith<T extends object>(source: T, changes?: Partial<T>): T {
  const out: Record<PropertyKey, unknown> = {};
  copyOwn(out, source);
  if (changes !== undefined) copyOwn(out, changes);
  return Object.freeze(out) as T;
}

function copyOwn(out: Record<PropertyKey, unknown>, from: object): void {
  const src = from as Record<PropertyKey, unknown>;
  for (const key of Object.keys(src)) {
    if (key === "__proto__") Object.defineProperty(out, key, { value: src[key], enumerable: true, writable: true, configurable: true });
    else out[key] = src[key];
  }
  for (const sym of Object.getOwnPropertySymbols(src)) if (Object.prototype.propertyIsEnumerable.call(src, sym)) out[sym] = src[sym];
}
