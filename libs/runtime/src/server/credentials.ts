import { X509Certificate } from "node:crypto";
import { readFileSync } from "node:fs";
import { createSecureContext } from "node:tls";
import { ServerCredentials } from "@grpc/grpc-js";
import { RuntimeError } from "../errors.js";

/** Where the server's TLS material lives; all unset means plaintext. */
export interface TlsFiles {
  /** PEM certificate chain of the server. */
  readonly certFile?: string | undefined;
  /** PEM private key of the certificate. */
  readonly keyFile?: string | undefined;
  /** PEM CA bundle; when set, clients must present a certificate it signed. */
  readonly clientCaFile?: string | undefined;
}

function read(file: string, variable: string): Buffer {
  try {
    return readFileSync(file);
  } catch (cause) {
    throw new RuntimeError("TLS_FILE_UNREADABLE", `${variable}: cannot read ${file}`, { cause });
  }
}

/** Server credentials from files: insecure, TLS, or mutual TLS. */
export function serverCredentials(tls: TlsFiles): ServerCredentials {
  const { certFile, keyFile, clientCaFile } = tls;
  if (certFile === undefined && keyFile === undefined) {
    if (clientCaFile !== undefined) throw new RuntimeError("CONFIG_INVALID", "TLS_CLIENT_CA_FILE needs TLS_CERT_FILE and TLS_KEY_FILE");
    return ServerCredentials.createInsecure();
  }
  if (certFile === undefined || keyFile === undefined) {
    throw new RuntimeError(
      "CONFIG_INVALID",
      `${certFile === undefined ? "TLS_CERT_FILE" : "TLS_KEY_FILE"} is required when the other TLS file is set`,
    );
  }
  const ca = clientCaFile === undefined ? null : read(clientCaFile, "TLS_CLIENT_CA_FILE");
  const cert = read(certFile, "TLS_CERT_FILE");
  const key = read(keyFile, "TLS_KEY_FILE");
  checkPem(() => createSecureContext({ cert }), "TLS_CERT_FILE", certFile);
  checkPem(() => createSecureContext({ cert, key }), "TLS_KEY_FILE", keyFile);
  if (ca !== null) checkPem(() => new X509Certificate(ca), "TLS_CLIENT_CA_FILE", clientCaFile as string);
  return ServerCredentials.createSsl(ca, [{ cert_chain: cert, private_key: key }], ca !== null);
}

// grpc-js reads the PEM only when it listens, and then reports a bad file as a listen failure:
// the same parse done here names the variable instead (a key is checked against its certificate).
function checkPem(parse: () => unknown, variable: string, file: string): void {
  try {
    parse();
  } catch (cause) {
    throw new RuntimeError("TLS_FILE_UNREADABLE", `${variable}: ${file} is not usable: ${(cause as Error).message}`, { cause });
  }
}
