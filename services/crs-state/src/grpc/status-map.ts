import { status } from "@grpc/grpc-js";
import { RpcError, type ErrorMapper } from "@crs/runtime";
import { CrsStateError, type CrsStateErrorCode } from "../errors.js";

/** The one mapping from crs-state error codes to gRPC status codes. */
export const STATUS_OF: Record<CrsStateErrorCode, status> = {
  PROJECT_NOT_FOUND: status.NOT_FOUND,
};

/** Turns a CrsStateError into the RpcError clients see; other errors are left to the runtime. */
export const mapError: ErrorMapper = (error) =>
  error instanceof CrsStateError ? new RpcError(STATUS_OF[error.code], error.code, error.message, error.metadata, { cause: error }) : undefined;
