import type { ScanFiles } from "../../scan/index.js";
import type { CorpusReports } from "../reports.js";
import { chartJsSource } from "./chart-source.js";
import { displayNumber, displayScalar } from "./format-value.js";
import { PAGE_SCRIPT } from "./page-script.js";

// A self-contained report page: figures and tables rendered here, charts drawn in the browser by
// the inlined Chart.js from the report data embedded as JSON. No request leaves the page.

/** What the page shows. */
export interface ReportPageInput {
  readonly root: string;
  /** The scan's clock, Unix ms. */
  readonly now: number;
  readonly reports: CorpusReports;
  readonly files: ScanFiles;
}

type Json = Record<string, unknown>;

function escapeHtml(text: string): string {
  return text.replaceAll("&", "&amp;").replaceAll("<", "&lt;").replaceAll(">", "&gt;").replaceAll('"', "&quot;");
}

/** JSON safe inside a script element. */
function embedJson(value: unknown): string {
  return JSON.stringify(value).replaceAll("<", "\\u003c").replaceAll("\u2028", "\\u2028").replaceAll("\u2029", "\\u2029");
}

function obj(v: unknown): Json {
  return typeof v === "object" && v !== null && !Array.isArray(v) ? (v as Json) : {};
}

function list(v: unknown): Json[] {
  return Array.isArray(v) ? v.map(obj) : [];
}

function num(v: unknown): number {
  return typeof v === "number" ? v : 0;
}

const round = (n: number): number => Math.round(n * 1000) / 1000;

/** The slowest tasks split into model / tool / wait / idle / other seconds, for the stacked chart. */
function splitRows(analytics: Json): Json[] {
  return list(analytics["top_tasks"]).map((t) => {
    const row = { label: `${String(t["session"]).slice(0, 13)}… ${String(t["outcome"])}`, model: 0, tool: 0, wait: 0, idle: 0, other: 0 };
    let counted = 0;
    for (const c of list(t["top"])) {
      const s = num(c["ms"]) / 1000;
      const cat = String(c["category"]);
      const key = cat.startsWith("tool:") ? "tool" : cat === "model" || cat === "wait" || cat === "idle" ? cat : "other";
      row[key] += s;
      counted += s;
    }
    // Only the top contributors are kept per task; the rest of its duration is shown as other.
    row.other += Math.max(0, num(t["duration_s"]) - counted);
    return {
      label: row.label,
      model: round(row.model),
      tool: round(row.tool),
      wait: round(row.wait),
      idle: round(row.idle),
      other: round(row.other),
    };
  });
}

function table(headers: readonly string[], rows: readonly (readonly unknown[])[]): string {
  if (rows.length === 0) return `<p class="empty">none</p>`;
  const th = headers.map((h) => `<th>${escapeHtml(h)}</th>`).join("");
  const body = rows
    .map((r) => `<tr>${r.map((c) => `<td${typeof c === "number" ? ' class="n"' : ""}>${escapeHtml(displayScalar(c))}</td>`).join("")}</tr>`)
    .join("\n");
  return `<table><thead><tr>${th}</tr></thead><tbody>${body}</tbody></table>`;
}

function card(title: string, value: string): string {
  return `<div class="card"><div class="v">${escapeHtml(value)}</div><div class="k">${escapeHtml(title)}</div></div>`;
}

function chartBox(id: string, title: string): string {
  return `<section class="chart"><h2>${escapeHtml(title)}</h2><div class="box"><canvas id="${id}"></canvas></div></section>`;
}

const STYLE = `
body{font:14px/1.45 system-ui,sans-serif;margin:0;color:#1d2733;background:#f5f7fa}
header{background:#1d2733;color:#fff;padding:18px 28px}header h1{margin:0;font-size:20px}header p{margin:4px 0 0;color:#b8c4d2}
main{padding:20px 28px;display:grid;gap:20px}
.cards{display:flex;flex-wrap:wrap;gap:12px}.card{background:#fff;border-radius:8px;padding:12px 16px;min-width:140px;box-shadow:0 1px 2px #0002}
.card .v{font-size:22px;font-weight:600}.card .k{color:#5b6775}
.grid{display:grid;grid-template-columns:repeat(auto-fit,minmax(420px,1fr));gap:20px}
section{background:#fff;border-radius:8px;padding:14px 18px;box-shadow:0 1px 2px #0002}h2{font-size:15px;margin:0 0 10px}
.box{position:relative;height:300px}
table{border-collapse:collapse;width:100%}th,td{padding:4px 8px;border-bottom:1px solid #e3e8ee;text-align:left}td.n{text-align:right;font-variant-numeric:tabular-nums}
.empty{color:#8893a0}ul.flags li{margin:4px 0}`;

/** The whole page as one HTML document. */
export function renderReportPage(input: ReportPageInput): string {
  const a = obj(input.reports.analytics);
  const h = obj(input.reports.health);
  const l = obj(input.reports.lifecycle);
  const data = { analytics: a, health: h, split: splitRows(a) };
  const classes = obj(a["classes"]);
  const hard = num(classes["failure"]) + num(classes["timeout"]);
  const tasks = num(a["tasks"]);
  const when = new Date(input.now).toISOString();
  const slowest = list(a["top_tasks"]).map((t) => [
    t["session"],
    t["turn_id"],
    t["outcome"],
    num(t["duration_s"]),
    t["ttft_s"],
    num(t["idle_s"]),
  ]);
  const byProvider = Object.entries(obj(l["by_provider_version"])).map(([k, v]) => {
    const c = obj(v);
    return [
      k,
      num(c["rollouts"]),
      num(c["starts"]),
      num(c["complete"]),
      num(c["aborted"]),
      num(c["superseded"]),
      num(c["process_death"]),
      num(c["live"]),
    ];
  });
  const findings = [
    ...list(a["findings"]).map((f) => `${String(f["reason"])}: ${String(f["action"])}`),
    ...(Array.isArray(h["flags"]) ? h["flags"].map(String) : []),
  ];
  const reasons = list(a["reasons"])
    .slice(0, 12)
    .map((r) => [r["class"], r["reason"], num(r["count"])]);
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1">
<title>Rollout report — ${escapeHtml(input.root)}</title><style>${STYLE}</style></head>
<body><header><h1>Rollout report</h1><p>${escapeHtml(input.root)} · as of ${escapeHtml(when)} · ${displayNumber(input.files.scanned)} files, ${displayNumber(input.files.bytes / 1e6)} MB</p></header>
<main>
<div class="cards">${card("sessions", displayNumber(num(a["sessions"])))}${card("tasks", displayNumber(tasks))}${card("completed", tasks === 0 ? "—" : `${displayNumber((100 * num(a["completed"])) / tasks)}%`)}${card("tool calls", displayNumber(num(a["tool_calls"])))}${card("hard tool failures", displayNumber(hard))}${card("zero-tool rate", displayNumber(num(obj(h["totals"])["zero_tool_rate"])))}</div>
<div class="grid">
${chartBox("chart-outcomes", "Task outcomes")}
${chartBox("chart-percentiles", "Duration and time to first token (percentiles)")}
${chartBox("chart-split", "Slowest tasks: model / tool / wait / idle")}
${chartBox("chart-classes", "Tool call outcomes")}
${chartBox("chart-zero-tool", "Zero-tool turns by category")}
<section><h2>Health findings</h2>${findings.length === 0 ? `<p class="empty">no findings</p>` : `<ul class="flags">${findings.map((f) => `<li>${escapeHtml(f)}</li>`).join("")}</ul>`}</section>
</div>
<section><h2>Slowest tasks</h2>${table(["session", "turn", "outcome", "duration s", "ttft s", "idle s"], slowest)}</section>
<section><h2>Tool outcome reasons</h2>${table(["class", "reason", "calls"], reasons)}</section>
<section><h2>Lifecycle by provider and version</h2>${table(["provider version", "rollouts", "starts", "complete", "aborted", "superseded", "process death", "live"], byProvider)}</section>
</main>
<script id="report-data" type="application/json">${embedJson(data)}</script>
<script>${chartJsSource()}</script>
<script>${PAGE_SCRIPT}</script>
</body></html>
`;
}
