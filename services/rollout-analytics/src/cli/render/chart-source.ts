import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { dirname, join } from "node:path";

let cached: string | undefined;

/**
 * The Chart.js UMD build, read from the installed package so the page carries it inline and
 * opens with no network. The package exports only its module entry, so the file is found beside it.
 */
export function chartJsSource(): string {
  if (cached === undefined) {
    const entry = createRequire(import.meta.url).resolve("chart.js");
    // A `</script>` inside the library would end the inline element early.
    cached = readFileSync(join(dirname(entry), "chart.umd.min.js"), "utf8").replaceAll("</script", "<\\/script");
  }
  return cached;
}
