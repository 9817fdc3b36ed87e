/**
 * Engine field names to proto field paths. The engine names what it validated in its own terms
 * (`updates[2].nodeId`); a client must get the path in the request it sent
 * (`delta.proof.entries[2].node_id`, snake_case as in the .proto, map keys as `metadata["k"]`).
 */

import { StateError, isStateError, type Delta } from "@crs/domain/state";

/** Engine names whose proto field is not simply their snake_case form. */
const RENAMED: Readonly<Record<string, string>> = {
  timestamp: "timestamp_unix_ms",
  updatedAt: "updated_at_unix_ms",
  createdAt: "created_at_unix_ms",
  learnedAt: "learned_at_unix_ms",
  queryTime: "query_time_unix_ms",
  from: "from_id",
  to: "to_id",
};

/** Engine names of map fields: the segment after one is a map key. */
const MAPS = new Set(["metadata", "params", "circuitBreakerThresholds"]);

/** `someName` as `some_name`, the proto's spelling of a TypeScript name. */
export const snake = (name: string): string => name.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`);

/** Splits `a.b[2].c` into `["a", "b", "[2]", "c"]`. */
function segments(path: string): string[] {
  return path.match(/[^.[\]]+|\[\d+\]/g) ?? [];
}

/**
 * The proto path of an engine path under `prefix`: names in snake_case (or renamed), indexes
 * kept, and the segment after a map field written as a map key.
 */
export function protoPath(prefix: string, enginePath: string, renamed: Readonly<Record<string, string>> = {}): string {
  let out = prefix;
  let mapKey = false;
  for (const s of segments(enginePath)) {
    if (s.startsWith("[")) out += s;
    else if (mapKey) out += `[${JSON.stringify(s)}]`;
    else {
      const name = renamed[s] ?? RENAMED[s] ?? snake(s);
      out += out === "" ? name : `.${name}`;
    }
    mapKey = !s.startsWith("[") && !mapKey && MAPS.has(s);
  }
  return out;
}

/** Paths of engine fields validated inside the request message `prefix` (the engine names a missing message by its own name). */
export function nested(prefix: string): (engineField: string) => string {
  return (f) => (f === prefix ? prefix : protoPath(prefix, f));
}

/** Per delta kind: the engine list name -> the proto path of that list inside the kind's message. */
const DELTA_LISTS: Readonly<Record<Delta["kind"], Readonly<Record<string, string>>>> = {
  proof: { updates: "proof.entries" },
  constraint: { add: "constraint.add", remove: "constraint.remove", update: "constraint.update" },
  similarity: { updates: "similarity.updates" },
  dependency: { add: "dependency.add_edges", remove: "dependency.remove_edges" },
  history: { entries: "history.entries" },
  streaming: { increments: "streaming.increments", observed: "streaming.observed" },
  analytics: { record: "analytics.record" },
  composite: { deltas: "composite.deltas" },
};

/** A proof entry's value fields sit in its `value` message. */
const PROOF_VALUE = new Set(["proof", "disproof", "status", "source", "updatedAt"]);

/** The proto path under `prefix` of an engine path into `delta`, following composites into their children. */
export function deltaFieldPath(delta: Delta, enginePath: string, prefix = "delta"): string {
  const [head, index, ...rest] = segments(enginePath);
  if (head === undefined || head === "kind") return prefix;
  const list = DELTA_LISTS[delta.kind]?.[head];
  if (list === undefined) return protoPath(prefix, enginePath);
  if (index === undefined || !index.startsWith("[")) return protoPath(`${prefix}.${list}`, [index, ...rest].filter(Boolean).join("."));
  const at = `${prefix}.${list}${index}`;
  if (delta.kind === "composite") {
    const child = delta.deltas[Number(index.slice(1, -1))];
    return child === undefined ? at : deltaFieldPath(child, rest.join(".").replace(/\.\[/g, "["), at);
  }
  const tail = rest.join(".").replace(/\.\[/g, "[");
  if (delta.kind === "proof" && rest[0] !== undefined && PROOF_VALUE.has(rest[0])) return protoPath(`${at}.value`, tail);
  if (delta.kind === "streaming" && rest[0] === "count") return `${at}.increment`;
  return protoPath(at, tail);
}

/** Fields of an apply that are not inside its delta (the change record's origin, the basis). */
const APPLY_FIELDS = new Set(["sessionId", "label", "metadata", "snapshot_generation", "delta"]);

/** The proto path in an ApplyRequest of an engine field raised while applying `delta`. */
export function applyFieldPath(delta: Delta, enginePath: string): string {
  const [head] = segments(enginePath);
  return head !== undefined && APPLY_FIELDS.has(head) ? protoPath("", enginePath) : deltaFieldPath(delta, enginePath);
}

/** Runs `fn`, rewriting the field of an engine error it throws with `path`. */
export function withFieldPaths<T>(path: (engineField: string) => string, fn: () => T): T {
  try {
    return fn();
  } catch (e) {
    throw renamed(e, path);
  }
}

/** `e` with its engine field rewritten by `path` (unchanged when it is not an engine error or names no field). */
export function renamed(e: unknown, path: (engineField: string) => string): unknown {
  if (!isStateError(e) || e.field === undefined) return e;
  return new StateError(e.code, e.message, { field: path(e.field), cause: e.cause ?? e, metadata: e.metadata });
}
