// The HTML report in a real headless browser (Debian's chromium driven by playwright-core).
import assert from "node:assert/strict";
import { existsSync } from "node:fs";
import { mkdtemp, readFile, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { test } from "node:test";
import { chromium } from "playwright-core";
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
  const tab = await browser.newPage({ viewport: { width: 1400, height: 1000 } });
  const problems: string[] = [];
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
