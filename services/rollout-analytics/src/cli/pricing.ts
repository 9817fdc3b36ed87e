import { readFile } from "node:fs/promises";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { parsePricing, RolloutError, type PricingTable } from "@crs/domain/rollout";
import { badField } from "../errors.js";

/** The price list shipped with the service (dated in its name and its `as_of`). */
export const SHIPPED_PRICING = join(dirname(fileURLToPath(import.meta.url)), "..", "..", "pricing", "openai-2026-06-01.json");

/** Reads a price list: `file` (from `--pricing`), else the shipped one. Bad files are refused naming the flag. */
export async function loadPricing(cwd: string, file: string | undefined): Promise<PricingTable> {
  const path = file === undefined ? SHIPPED_PRICING : resolve(cwd, file);
  let json: unknown;
  try {
    json = JSON.parse(await readFile(path, "utf8"));
  } catch (e) {
    throw badField("--pricing", `must be a readable JSON file (${e instanceof Error ? e.message : String(e)})`);
  }
  try {
    return parsePricing(json, "--pricing");
  } catch (e) {
    if (e instanceof RolloutError && e.code === "INVALID_ARGUMENT")
      throw badField(e.field ?? "--pricing", e.message.replace(/^rollout: [^:]*: /, ""));
    throw e;
  }
}
