import type { Metadata } from "@grpc/grpc-js";
import type { DescFile } from "@bufbuild/protobuf";
import type { Logger } from "../logging/logger.js";
import type { RpcError } from "../errors.js";
import type { ReasonCatalog } from "../status/reasons.js";
import type { TlsFiles } from "./credentials.js";

/** How a gRPC server is built and run. */
export interface ServerOptions {
  /** Service name used in logs and metrics. */
  readonly name: string;
  /** Listen address, `host:port`; port 0 picks a free one. */
  readonly address: string;
  /** The service's reason vocabulary; the runtime's own failures are sent as its enum's names. */
  readonly reasons: ReasonCatalog;
  /** The logger every call logs through. */
  readonly logger: Logger;
  /** Descriptor files whose services reflection serves; empty turns reflection off. */
  readonly reflectionFiles: readonly DescFile[];
  /**
   * Largest message accepted or sent, in bytes.
   * @defaultValue 16 MiB
   */
  readonly maxMessageBytes?: number;
  /**
   * Keepalive ping interval, in milliseconds.
   * @defaultValue 60000
   */
  readonly keepaliveTimeMs?: number;
  /**
   * How long a keepalive ping may go unanswered, in milliseconds.
   * @defaultValue 20000
   */
  readonly keepaliveTimeoutMs?: number;
  /**
   * Connections older than this are asked to reconnect; 0 means never.
   * @defaultValue 0
   */
  readonly maxConnectionAgeMs?: number;
  /**
   * Grace period for calls on a connection past its age, in milliseconds.
   * @defaultValue 30000
   */
  readonly maxConnectionAgeGraceMs?: number;
  /**
   * Most client connections open at once; further ones are closed as they arrive.
   * @defaultValue 1024
   */
  readonly maxConnections?: number;
  /**
   * How long a new connection may take to complete TLS and the HTTP/2 preface, in milliseconds.
   * @defaultValue 20000
   */
  readonly handshakeTimeoutMs?: number;
  /** TLS or mTLS material; plaintext when omitted. */
  readonly tls?: TlsFiles;
  /** Rejects calls without the right credentials; health checks are exempt. */
  readonly authorize?: ((metadata: Metadata) => RpcError | undefined) | undefined;
}
