// The HTML report in a real headless browser (Debian's chromium driven by playwright-core).
import assert from "node:assert/strict";
import { existsSync } from "node:fs";
import { mkdir, mkdtemp, readdir, readFile, rm, stat, utimes, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { test } from "node:test";
import { type Browser, chromium, type Page } from "playwright-core";
import { writeCorpus } from "../generate/index.js";
import { runCli } from "./program.js";
import { captureIo } from "./test-support.js";

const CHROMIUM = "/usr/bin/chromium";
const SKIP = existsSync(CHROMIUM) ? false : `${CHROMIUM} is missing (apt-get install -y chromium)`;
const FLAGS = [
  "--headless",
  "--no-sandbox",
  "--disable-gpu",
  "--disable-quic",
  "--no-first-run",
  "--disable-background-networking",
  "--disable-component-update",
  "--disable-sync",
];

test("the HTML report opens offline with no console error and draws every chart", { skip: SKIP }, async (t) => {
  const dir = await mkdtemp(join(tmpdir(), "rollouts-html-"));
  t.after(() => rm(dir, { recursive: true, force: true }));
  await writeCorpus({ dir: join(dir, "sessions"), seed: 3, files: 30, bigLineShare: 0 });
  const page = join(dir, "report.html");
  const io = captureIo();
  assert.equal(
    await runCli(
      ["scan", join(dir, "sessions"), "--now", "2026-05-15", "--no-cache", "--workers", "1", "--format", "html", "--out", page],
      io,
    ),
    0,
    io.stderr,
  );
  const html = await readFile(page, "utf8");
  assert.ok(
    !/<script[^>]+src=|<link[^>]+href=|https?:\/\/(?!www\.w3\.org)/i.test(html.replace(/<script>[\s\S]*?<\/script>/g, "")),
    "no external resource outside the inlined scripts",
  );

  const browser = await chromium.launch({ executablePath: CHROMIUM, args: FLAGS });
  t.after(() => browser.close());
  const { tab, problems } = await openReport(browser, page, { width: 1400, height: 1000 });
  const charts = await tab.evaluate(() => {
    // The page's own objects, typed here since this project compiles without the DOM library.
    type Canvas = {
      id: string;
      width: number;
      height: number;
      getContext(kind: "2d"): { getImageData(x: number, y: number, w: number, h: number): { data: Uint8ClampedArray } } | null;
    };
    const list = (globalThis as unknown as { reportCharts?: { canvas: Canvas; config: { type: string } }[] }).reportCharts ?? [];
    return list.map((c) => {
      const ctx = c.canvas.getContext("2d");
      const { data } = ctx?.getImageData(0, 0, c.canvas.width, c.canvas.height) ?? { data: new Uint8ClampedArray() };
      let painted = 0;
      for (let i = 3; i < data.length; i += 4) if ((data[i] ?? 0) > 0) painted += 1;
      return { id: c.canvas.id, type: c.config.type, painted };
    });
  });
  const shot = join(tmpdir(), "rollouts-report-screenshot.png");
  await tab.screenshot({ path: shot, fullPage: true });
  t.diagnostic(`screenshot: ${shot}`);
  assert.deepEqual(problems, [], "no console error, page error or request");
  assert.deepEqual(
    charts.map((c) => c.id).sort(),
    ["chart-classes", "chart-outcomes", "chart-percentiles", "chart-split", "chart-zero-tool"],
    "every chart exists",
  );
  for (const c of charts) assert.ok(c.painted > 500, `${c.id} (${c.type}) is drawn: ${c.painted} painted pixels`);
  const tableRows = await tab.locator("section:has(h2:text('Slowest tasks')) tbody tr").count();
  assert.ok(tableRows > 0, "the slowest tasks are listed");
});

const SCRIPT = "<script>alert(1)</script>";
const ATTRIBUTE = '"><img src=x onerror=alert(1)>';

/** Rewrites a generated rollout so its cwd, provider, version, tool names and turn ids carry markup. */
async function plantMarkup(path: string): Promise<void> {
  const { mtime } = await stat(path);
  const turns = new Map<string, string>();
  const lines = (await readFile(path, "utf8")).split("\n").map((line) => {
    if (line === "") return line;
    const parsed = JSON.parse(line);
    const p = parsed.payload;
    if (parsed.type === "session_meta" || parsed.type === "turn_context") p.cwd = `/home/${SCRIPT}/${ATTRIBUTE}`;
    if (parsed.type === "session_meta") Object.assign(p, { model_provider: `p${SCRIPT}`, cli_version: `v${ATTRIBUTE}` });
    if (typeof p?.turn_id === "string") {
      if (!turns.has(p.turn_id)) turns.set(p.turn_id, `${turns.size % 2 === 0 ? ATTRIBUTE : SCRIPT}-${turns.size}`);
      p.turn_id = turns.get(p.turn_id);
    }
    if (p?.type === "function_call" || p?.type === "custom_tool_call") p.name = `${p.name}${SCRIPT}${ATTRIBUTE}`;
    return JSON.stringify(parsed);
  });
  await writeFile(path, lines.join("\n"));
  await utimes(path, mtime, mtime);
}

/** Opens a report page, recording dialogs, console errors, page errors and requests. */
async function openReport(
  browser: Browser,
  page: string,
  viewport?: { width: number; height: number },
): Promise<{ tab: Page; problems: string[] }> {
  const tab = await browser.newPage(viewport === undefined ? {} : { viewport });
  const problems: string[] = [];
  tab.on("dialog", (d) => {
    problems.push(`dialog: ${d.message()}`);
    return d.dismiss();
  });
  tab.on("console", (m) => {
    if (m.type() === "error") problems.push(`console: ${m.text()}`);
  });
  tab.on("pageerror", (e) => problems.push(`page error: ${e.message}`));
  // Anything but the file itself would be a network request: refuse it and remember it.
  await tab.route(/^(?!file:)/, (route) => {
    problems.push(`request: ${route.request().url()}`);
    return route.abort();
  });
  await tab.goto(pathToFileURL(page).href);
  return { tab, problems };
}

test("markup in a rollout's cwd, tool names or turn ids shows as text and runs nothing, and an empty store shows no NaN", {
  skip: SKIP,
}, async (t) => {
  const dir = await mkdtemp(join(tmpdir(), "rollouts-html-markup-"));
  t.after(() => rm(dir, { recursive: true, force: true }));
  const store = join(dir, "sessions");
  await writeCorpus({ dir: store, seed: 5, files: 1, bigLineShare: 0 });
  const [rollout] = (await readdir(store, { recursive: true })).filter((f) => f.endsWith(".jsonl"));
  await plantMarkup(join(store, rollout ?? ""));
  await mkdir(join(dir, "empty"));
  const browser = await chromium.launch({ executablePath: CHROMIUM, args: FLAGS });
  t.after(() => browser.close());
  for (const [name, root] of [
    ["one", store],
    ["empty", join(dir, "empty")],
  ] as const) {
    const page = join(dir, `${name}.html`);
    const io = captureIo();
    const args = ["scan", root, "--now", "2026-05-15", "--no-cache", "--workers", "1", "--format", "html", "--out", page];
    assert.equal(await runCli(args, io), 0, io.stderr);
    const { tab, problems } = await openReport(browser, page);
    // What a reader sees (the header and main text, not the inline scripts' source) and what was built.
    const shown = {
      text: (await tab.locator("header, main").allTextContents()).join("\n"),
      images: await tab.locator("img").count(),
      scripts: await tab.locator("script").count(),
    };
    assert.deepEqual(problems, [], `${name}: no dialog, console error, page error or request`);
    assert.equal(shown.images, 0, `${name}: no element made from rollout text`);
    assert.equal(shown.scripts, 3, `${name}: only the page's own scripts`);
    assert.doesNotMatch(shown.text, /NaN|undefined|Infinity/, `${name}: every figure is a number`);
    if (name === "one") {
      for (const planted of [SCRIPT, ATTRIBUTE]) assert.ok(shown.text.includes(planted), `${planted} shows literally`);
    }
  }
});
