import { invalidArgument } from "../errors.js";
import { isObject } from "../json.js";
import type { TokenFigures } from "./figures.js";

/** Prices of one model in currency units per million tokens. */
export interface ModelPrice {
  readonly input: number;
  /** Price of input tokens served from the cache. */
  readonly cachedInput: number;
  /** Price of output tokens (reasoning tokens are output tokens). */
  readonly output: number;
}

/** A dated price list. */
export interface PricingTable {
  /** The date the prices were read, `YYYY-MM-DD`. */
  readonly asOf: string;
  readonly currency: string;
  readonly source: string;
  readonly models: Readonly<Record<string, ModelPrice>>;
}

function price(value: unknown, field: string): number {
  if (typeof value !== "number" || !Number.isFinite(value) || value < 0)
    throw invalidArgument(field, "must be a non-negative number (per million tokens)");
  return value;
}

/**
 * Reads a price list in its file shape:
 * `{"as_of":"YYYY-MM-DD","currency":"USD","source":…,"models":{"<model>":{"input":…,"cached_input":…,"output":…}}}`.
 * `field` names the file in errors.
 */
export function parsePricing(json: unknown, field: string): PricingTable {
  if (!isObject(json)) throw invalidArgument(field, "must be a JSON object");
  const asOf = json["as_of"];
  if (typeof asOf !== "string" || !/^\d{4}-\d{2}-\d{2}$/.test(asOf)) throw invalidArgument(`${field}.as_of`, "must be a YYYY-MM-DD date");
  const currency = json["currency"];
  if (typeof currency !== "string" || !/^[A-Z]{3}$/.test(currency))
    throw invalidArgument(`${field}.currency`, "must be a three-letter currency code");
  const source = typeof json["source"] === "string" ? json["source"] : "";
  const models = json["models"];
  if (!isObject(models)) throw invalidArgument(`${field}.models`, "must be an object of model prices");
  const out = new Map<string, ModelPrice>();
  for (const [name, p] of Object.entries(models)) {
    const at = `${field}.models.${name}`;
    if (!isObject(p)) throw invalidArgument(at, "must be {input, cached_input, output}");
    const input = price(p["input"], `${at}.input`);
    // A model without a cache price bills cached tokens as input.
    const cachedInput = p["cached_input"] === undefined ? input : price(p["cached_input"], `${at}.cached_input`);
    out.set(name, { input, cachedInput, output: price(p["output"], `${at}.output`) });
  }
  // Own members only: a model named `__proto__` assigned to a plain object would replace its prototype.
  return { asOf, currency, source, models: Object.fromEntries(out) };
}

// A dated snapshot of a model (`gpt-5-2025-08-07`) is billed as the model the list names.
const SNAPSHOT_DATE = /-\d{4}-\d{2}-\d{2}$/;

/**
 * The price of `model`: its own entry, else that of the name without a provider prefix
 * (`openai/gpt-5`) and without a dated snapshot suffix (`gpt-5-2025-08-07`), as a price list
 * names models once; undefined when none is listed.
 */
export function modelPrice(table: PricingTable, model: string): ModelPrice | undefined {
  const bare = model.slice(model.lastIndexOf("/") + 1);
  return listed(table, model) ?? listed(table, bare) ?? listed(table, bare.replace(SNAPSHOT_DATE, ""));
}

// A model the list names itself: `constructor` or `toString` are no price, though every object inherits them.
function listed(table: PricingTable, model: string): ModelPrice | undefined {
  return Object.hasOwn(table.models, model) ? table.models[model] : undefined;
}

/** Cost of `f` at `p`: uncached input, cached input and output each at their price. */
export function costOf(f: TokenFigures, p: ModelPrice): number {
  return ((f.input - f.cachedInput) * p.input + f.cachedInput * p.cachedInput + f.output * p.output) / 1_000_000;
}
