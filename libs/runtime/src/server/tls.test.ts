import { test } from "node:test";
import assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { credentials, status, type ChannelCredentials, type ServiceError } from "@grpc/grpc-js";
import { EchoService } from "@crs/contracts/gen/crs/testing/v1/echo_pb";
import { createClient } from "../adapter/client.js";
import { startEchoServer } from "../testing/echo-server.js";
import { RuntimeError } from "../errors.js";
import { serverCredentials, type TlsFiles } from "./credentials.js";

// A throwaway CA signing a server certificate for 127.0.0.1 and a client certificate.
function makePki(dir: string): Record<"ca" | "serverCert" | "serverKey" | "clientCert" | "clientKey", string> {
  const ssl = (...args: string[]) => execFileSync("openssl", args, { cwd: dir, stdio: "pipe" });
  ssl("req", "-x509", "-newkey", "rsa:2048", "-nodes", "-days", "1", "-subj", "/CN=test-ca", "-keyout", "ca.key", "-out", "ca.pem");
  writeFileSync(join(dir, "san.ext"), "subjectAltName=IP:127.0.0.1,DNS:localhost\n");
  for (const who of ["server", "client"]) {
    ssl("req", "-newkey", "rsa:2048", "-nodes", "-subj", `/CN=${who}`, "-keyout", `${who}.key`, "-out", `${who}.csr`);
    ssl(
      "x509",
      "-req",
      "-in",
      `${who}.csr`,
      "-CA",
      "ca.pem",
      "-CAkey",
      "ca.key",
      "-CAcreateserial",
      "-days",
      "1",
      "-extfile",
      "san.ext",
      "-out",
      `${who}.pem`,
    );
  }
  return {
    ca: join(dir, "ca.pem"),
    serverCert: join(dir, "server.pem"),
    serverKey: join(dir, "server.key"),
    clientCert: join(dir, "client.pem"),
    clientKey: join(dir, "client.key"),
  };
}

const haveOpenssl = ["/usr/bin/openssl", "/bin/openssl", "/usr/local/bin/openssl"].some(existsSync);

async function echoOver(port: number, channel: ChannelCredentials): Promise<string | number> {
  const client = createClient(EchoService, `127.0.0.1:${port}`, { credentials: channel });
  try {
    return (await client.echo({ message: "over tls" }, { deadline: 5000 })).message;
  } catch (error) {
    return (error as ServiceError).code;
  } finally {
    client.close();
  }
}

test("TLS from files: a client trusting the CA connects, a plaintext client cannot", {
  skip: !haveOpenssl && "openssl is not installed",
}, async () => {
  const dir = mkdtempSync(join(tmpdir(), "crs-tls-"));
  try {
    const pki = makePki(dir);
    const { server, port, client } = await startEchoServer({ tls: { certFile: pki.serverCert, keyFile: pki.serverKey } });
    client.close();
    try {
      assert.equal(await echoOver(port, credentials.createSsl(readFileSync(pki.ca))), "over tls", "TLS client succeeds");
      assert.equal(await echoOver(port, credentials.createInsecure()), status.UNAVAILABLE, "plaintext client is refused");
    } finally {
      await server.shutdown(1000);
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test("mTLS: a client without a certificate signed by the client CA is refused", {
  skip: !haveOpenssl && "openssl is not installed",
}, async () => {
  const dir = mkdtempSync(join(tmpdir(), "crs-mtls-"));
  try {
    const pki = makePki(dir);
    const { server, port, client } = await startEchoServer({
      tls: { certFile: pki.serverCert, keyFile: pki.serverKey, clientCaFile: pki.ca },
    });
    client.close();
    try {
      const ca = readFileSync(pki.ca);
      assert.equal(await echoOver(port, credentials.createSsl(ca)), status.UNAVAILABLE, "no client certificate: refused");
      assert.equal(
        await echoOver(port, credentials.createSsl(ca, readFileSync(pki.clientKey), readFileSync(pki.clientCert))),
        "over tls",
        "client certificate signed by the CA: accepted",
      );
    } finally {
      await server.shutdown(1000);
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test("a certificate or key that is no usable PEM, or a key of another certificate, is refused naming its variable", {
  skip: haveOpenssl ? false : "openssl not installed",
}, () => {
  const dir = mkdtempSync(join(tmpdir(), "tls-bad-"));
  try {
    const pki = makePki(dir);
    const garbage = join(dir, "garbage.pem");
    writeFileSync(garbage, "not a certificate\n");
    const refused = (files: TlsFiles, variable: string) =>
      assert.throws(
        () => serverCredentials(files),
        (e: unknown) => e instanceof RuntimeError && e.code === "TLS_FILE_UNREADABLE" && e.message.includes(variable),
        variable,
      );
    refused({ certFile: garbage, keyFile: pki.serverKey }, "TLS_CERT_FILE");
    refused({ certFile: pki.serverCert, keyFile: garbage }, "TLS_KEY_FILE");
    refused({ certFile: pki.serverCert, keyFile: pki.clientKey }, "TLS_KEY_FILE");
    refused({ certFile: pki.serverCert, keyFile: pki.serverKey, clientCaFile: garbage }, "TLS_CLIENT_CA_FILE");
    assert.ok(serverCredentials({ certFile: pki.serverCert, keyFile: pki.serverKey, clientCaFile: pki.ca }), "a good set is taken");
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
