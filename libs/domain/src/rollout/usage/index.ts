// Public surface of token usage and cost.
export { tokenCountUsage, type TokenFigures, type TokenCountUsage } from "./figures.js";
export { usageOfRecords } from "./fold.js";
export { UsageCollector, type RolloutUsage } from "./collect.js";
export { usageLineVerdict, USAGE_HEAD_BYTES, type UsageLineVerdict } from "./line-head.js";
export { emptyUsage, mergeUsage, UsageSum } from "./merge.js";
export { parsePricing, costOf, type PricingTable, type ModelPrice } from "./pricing.js";
export {
  usageReport,
  usageRowModels,
  USAGE_SCHEMA,
  USAGE_GROUPINGS,
  type UsageGrouping,
  type UsageReportJson,
  type UsageRowJson,
  type UsageFiguresJson,
} from "./report.js";
export { USAGE_VERSION, UNKNOWN_MODEL, type UsagePartial, type SessionUsage } from "./types.js";
