import { homedir } from "node:os";
import { join } from "node:path";

/** A per-file cache's default home, `<$XDG_CACHE_HOME or ~/.cache>/crs-rollout-analytics/<kind>`. */
export function userCacheDir(kind: string): string {
  const base = process.env["XDG_CACHE_HOME"]?.trim() || join(homedir(), ".cache");
  return join(base, "crs-rollout-analytics", kind);
}
