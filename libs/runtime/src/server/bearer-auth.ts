import { timingSafeEqual, createHash } from "node:crypto";
import { readFileSync } from "node:fs";
import { status, type Metadata } from "@grpc/grpc-js";
import { RuntimeError, RuntimeRpcError, type RpcError } from "../errors.js";

const digest = (value: string): Buffer => createHash("sha256").update(value).digest();

/** Reads the token file (trimmed); an empty file is a configuration error. */
export function readTokenFile(file: string): string {
  let token: string;
  try {
    token = readFileSync(file, "utf8").trim();
  } catch (cause) {
    throw new RuntimeError("CONFIG_INVALID", `AUTH_TOKEN_FILE: cannot read ${file}`, { cause });
  }
  if (token === "") throw new RuntimeError("CONFIG_INVALID", `AUTH_TOKEN_FILE: ${file} is empty`);
  return token;
}

/**
 * A check that every call carries `authorization: Bearer <token>`. Digests are compared in
 * constant time so the comparison leaks neither the token nor its length.
 */
export function bearerAuth(token: string): (metadata: Metadata) => RpcError | undefined {
  const expected = digest(token);
  return (metadata) => {
    const header = metadata.get("authorization")[0];
    // The scheme name is case-insensitive (RFC 7235); the token itself is not.
    const match = typeof header === "string" ? /^bearer +(.+)$/i.exec(header) : null;
    const presented = match?.[1];
    if (presented !== undefined && timingSafeEqual(digest(presented), expected)) return undefined;
    return new RuntimeRpcError(status.UNAUTHENTICATED, "UNAUTHENTICATED", "a valid `authorization: Bearer <token>` header is required");
  };
}
