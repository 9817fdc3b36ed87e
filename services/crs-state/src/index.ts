/** crs-state as a library, for tests and embedding. */
export { crsState } from "./service.js";
export { CrsStateError, type CrsStateErrorCode } from "./errors.js";
