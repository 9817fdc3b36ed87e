import { readFile } from "node:fs/promises";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { parsePricing, RolloutError, type PricingTable } from "@crs/domain/rollout";
import { badField } from "../errors.js";
import shipped from "../../pricing/openai-2026-06-01.json" with { type: "json" };

/** The price list shipped with the service (dated in its name and its `as_of`). */
export const SHIPPED_PRICING = join(dirname(fileURLToPath(import.meta.url)), "..", "..", "pricing", "openai-2026-06-01.json");

// The shipped list is part of the program (a bundle carries it), so the command never looks for
// it beside its own module, where a bundle or an image has no pricing folder.
const SHIPPED_JSON: unknown = shipped;

/** Reads a price list: `file` (from `--pricing`), else the shipped one. Bad files are refused naming the flag. */
export async function loadPricing(cwd: string, file: string | undefined): Promise<PricingTable> {
  let json: unknown = SHIPPED_JSON;
  if (file !== undefined) {
    try {
      json = JSON.parse(await readFile(resolve(cwd, file), "utf8"));
    } catch (e) {
      throw badField("--pricing", `must be a readable JSON file (${e instanceof Error ? e.message : String(e)})`);
    }
  }
  try {
    return parsePricing(json, "--pricing");
  } catch (e) {
    if (e instanceof RolloutError && e.code === "INVALID_ARGUMENT")
      throw badField(e.field ?? "--pricing", e.message.replace(/^rollout: [^:]*: /, ""));
    throw e;
  }
}
