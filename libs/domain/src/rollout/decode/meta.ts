import { firstNonBlank, isObject, trimmed, type JsonObject } from "../json.js";
import type { RolloutMeta } from "./record.js";

// Subagent rollouts write `source` as an object; it is named, never a reason to drop the line.
function sourceLabel(source: unknown): string {
  if (typeof source === "string") return source.trim();
  if (!isObject(source)) return "";
  const [key] = Object.keys(source).sort();
  if (key === undefined) return "";
  const inner = source[key];
  if (typeof inner === "string" && inner.trim() !== "") return `${key}:${inner.trim()}`;
  if (isObject(inner)) {
    const [sub] = Object.keys(inner).sort();
    return sub === undefined ? key : `${key}:${sub}`;
  }
  return key;
}

function parentThread(payload: JsonObject): string {
  const direct = trimmed(payload, "parent_thread_id");
  if (direct !== "") return direct;
  const source = payload["source"];
  if (!isObject(source) || !isObject(source["subagent"])) return "";
  const spawn = source["subagent"]["thread_spawn"];
  return isObject(spawn) ? trimmed(spawn, "parent_thread_id") : "";
}

/** Builds rollout identity from a session_meta payload (or a legacy bare meta line). */
export function metaFromPayload(payload: JsonObject): RolloutMeta {
  return {
    rolloutId: firstNonBlank(payload, "id", "session_id"),
    provider: trimmed(payload, "model_provider"),
    cliVersion: trimmed(payload, "cli_version"),
    cwd: trimmed(payload, "cwd"),
    originator: trimmed(payload, "originator"),
    source: sourceLabel(payload["source"]),
    threadSource: trimmed(payload, "thread_source"),
    parentThreadId: parentThread(payload),
    forkedFromId: trimmed(payload, "forked_from_id"),
  };
}

/** The meta of a rollout that carried none. */
export const EMPTY_META: RolloutMeta = {
  rolloutId: "",
  provider: "",
  cliVersion: "",
  cwd: "",
  originator: "",
  source: "",
  threadSource: "",
  parentThreadId: "",
  forkedFromId: "",
};

/** Provider and CLI version as one row key, `unknown` standing in for blanks. */
export function providerVersion(meta: RolloutMeta): string {
  return `${meta.provider.trim() || "unknown"} ${meta.cliVersion.trim() || "unknown"}`;
}
