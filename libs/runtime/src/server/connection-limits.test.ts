import { test } from "node:test";
import assert from "node:assert/strict";
import { once } from "node:events";
import { createConnection, type Socket } from "node:net";
import { connect } from "node:http2";
import { startEchoServer } from "../testing/echo-server.js";
import { eventually } from "../testing/call-assertions.js";

const silentSocket = async (port: number): Promise<{ socket: Socket; closed: () => boolean }> => {
  const socket = createConnection({ host: "127.0.0.1", port });
  socket.on("error", () => undefined);
  // Reading is how a client notices the server closed the connection.
  socket.resume();
  let closed = false;
  socket.once("close", () => (closed = true));
  await once(socket, "connect");
  return { socket, closed: () => closed };
};

test("connections that never send the HTTP/2 preface are closed after the handshake timeout", async () => {
  const { server, client, port } = await startEchoServer({ handshakeTimeoutMs: 300 });
  const sockets = await Promise.all(Array.from({ length: 50 }, () => silentSocket(port)));
  try {
    // A client that completes its preface is left alone past the timeout.
    assert.equal((await client.echo({ message: "before" })).message, "before", "a real client connects");
    assert.ok(await eventually(() => sockets.every((s) => s.closed()), 10_000), "every silent socket was closed by the server");
    assert.equal((await client.echo({ message: "after" })).message, "after", "the real client's connection survived the timeout");
  } finally {
    for (const { socket } of sockets) socket.destroy();
    client.close();
    await server.shutdown(1000);
  }
});

test("connections beyond the cap are closed as they arrive, and a freed slot admits a new one", async () => {
  const { server, port } = await startEchoServer({ maxConnections: 5, handshakeTimeoutMs: 60_000 });
  const held = await Promise.all(Array.from({ length: 5 }, () => silentSocket(port)));
  try {
    const extra = await silentSocket(port);
    assert.ok(await eventually(extra.closed, 5000), "the sixth connection was closed");
    assert.ok(
      held.every((s) => !s.closed()),
      "the first five stay open",
    );
    held[0]!.socket.destroy();
    assert.ok(await eventually(held[0]!.closed), "a slot is freed");
    const session = connect(`http://127.0.0.1:${port}`);
    session.on("error", () => undefined);
    try {
      assert.ok(
        await Promise.race([once(session, "remoteSettings").then(() => true), once(session, "close").then(() => false)]),
        "a new client is admitted into the freed slot",
      );
    } finally {
      session.destroy();
    }
  } finally {
    for (const { socket } of held) socket.destroy();
    await server.shutdown(1000);
  }
});
