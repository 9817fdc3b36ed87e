/**
 * Test support: the ErrorInfo reasons the crs.state.v1 contracts promise, read from the comments of
 * the .proto files: per service the reasons its comment gives every call, per RPC the ones its own
 * comment lists after "Reasons:".
 */
import { readFileSync, readdirSync } from "node:fs";
import { join, resolve } from "node:path";
import { ErrorReasonSchema } from "@crs/contracts/gen/crs/state/v1/errors_pb";

const PROTO_DIR = resolve(import.meta.dirname, "../../../../proto/crs/state/v1");

/** Reason names that are also the generic failures every call may meet; no comment needs to list them. */
export const GENERIC_REASONS: ReadonlySet<string> = new Set([
  "INVALID_ARGUMENT",
  "UNAUTHENTICATED",
  "PERMISSION_DENIED",
  "SERVER_SHUTTING_DOWN",
  "CANCELLED",
  "DEADLINE_EXCEEDED",
  "INTERNAL",
  "UNIMPLEMENTED",
]);

const REASON_NAMES = new Set(ErrorReasonSchema.values.filter((v) => v.number !== 0).map((v) => v.name.replace(/^ERROR_REASON_/, "")));

/** The reason names a comment mentions, generic ones left out. */
function reasonsIn(text: string): Set<string> {
  return new Set((text.match(/\b[A-Z][A-Z_]+[A-Z]\b/g) ?? []).filter((w) => REASON_NAMES.has(w) && !GENERIC_REASONS.has(w)));
}

/** The `//` lines right above line `at`, joined. */
function commentAbove(lines: readonly string[], at: number): string {
  const out: string[] = [];
  for (let i = at - 1; i >= 0; i--) {
    const line = (lines[i] as string).trim();
    if (!line.startsWith("//")) break;
    out.unshift(line.slice(2).trim());
  }
  return out.join(" ");
}

/** What the contracts document of one service's failures. */
export interface DocumentedReasons {
  /** Reasons the service comment gives every call (or every call of a class). */
  readonly service: ReadonlySet<string>;
  /** Per RPC name, the reasons its comment lists after "Reasons:". */
  readonly rpcs: ReadonlyMap<string, ReadonlySet<string>>;
}

/** The documented reasons of every service in crs.state.v1, by service name. */
export function documentedReasons(): ReadonlyMap<string, DocumentedReasons> {
  const out = new Map<string, DocumentedReasons>();
  for (const file of readdirSync(PROTO_DIR).filter((f) => f.endsWith(".proto"))) {
    const lines = readFileSync(join(PROTO_DIR, file), "utf8").split("\n");
    let current: { name: string; rpcs: Map<string, ReadonlySet<string>> } | undefined;
    lines.forEach((line, i) => {
      const service = /^service (\w+) \{/.exec(line);
      if (service !== null) {
        current = { name: service[1] as string, rpcs: new Map() };
        out.set(current.name, { service: reasonsIn(commentAbove(lines, i)), rpcs: current.rpcs });
        return;
      }
      const rpc = /^\s+rpc (\w+)\(/.exec(line);
      if (rpc !== null && current !== undefined) {
        const comment = commentAbove(lines, i);
        const listed = comment.includes("Reasons:") ? comment.slice(comment.indexOf("Reasons:")) : "";
        current.rpcs.set(rpc[1] as string, reasonsIn(listed));
      }
      if (line.startsWith("}")) current = undefined;
    });
  }
  return out;
}

/** True when `reason` is documented for `rpc` (`Service.Method`): generic, listed for the service, or listed for the RPC. */
export function isDocumented(docs: ReadonlyMap<string, DocumentedReasons>, rpc: string, reason: string): boolean {
  const [service, method] = rpc.split(".") as [string, string];
  const doc = docs.get(service);
  return GENERIC_REASONS.has(reason) || doc?.service.has(reason) === true || doc?.rpcs.get(method)?.has(reason) === true;
}
