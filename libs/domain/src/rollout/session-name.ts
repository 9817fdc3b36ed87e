/**
 * The session a rollout file stands for: its base name without `.jsonl`. Scans and uploads both
 * name sessions this way, so one rollout has one name in every report.
 */
export function sessionOfFile(fileName: string): string {
  const base = fileName.slice(Math.max(fileName.lastIndexOf("/"), fileName.lastIndexOf("\\")) + 1);
  return base.endsWith(".jsonl") ? base.slice(0, -".jsonl".length) : base;
}
