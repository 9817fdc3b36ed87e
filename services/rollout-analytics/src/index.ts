/** rollout-analytics as a library, for tests and embedding. */
export { rolloutAnalytics } from "./service.js";
export { AnalyticsError, type AnalyticsErrorCode } from "./errors.js";
