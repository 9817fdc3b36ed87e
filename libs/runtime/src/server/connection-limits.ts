import type { Server as NetServer, Socket } from "node:net";
import type { Http2Session } from "node:http2";
import type { Server } from "@grpc/grpc-js";

/** Bounds on the connections a server holds. */
export interface ConnectionLimits {
  /** Most connections open at once; further ones are closed as they arrive. */
  readonly maxConnections: number;
  /** How long a connection may take to complete the HTTP/2 preface (and TLS) before it is closed. */
  readonly handshakeTimeoutMs: number;
}

// The listeners grpc-js bound. It offers no option for either bound, so they are set on its
// servers directly (a private field of @grpc/grpc-js 1.14, whose version is pinned).
function listenersOf(server: Server): NetServer[] {
  const servers = (server as unknown as { http2Servers?: Map<NetServer, unknown> }).http2Servers;
  return servers === undefined ? [] : [...servers.keys()];
}

const peerOf = (socket: { remoteAddress?: string | undefined; remotePort?: number | undefined }): string =>
  `${socket.remoteAddress}:${socket.remotePort}`;

/**
 * Applies `limits` to every listener of `server` (call once it is bound): Node refuses connections
 * beyond the cap, and a connection whose client has not sent its HTTP/2 settings within the
 * handshake timeout is destroyed, so silent sockets cannot pile up.
 */
export function limitConnections(server: Server, limits: ConnectionLimits): void {
  for (const listener of listenersOf(server)) {
    listener.maxConnections = limits.maxConnections;
    // Keyed by peer address: with TLS the session's socket is a wrapper of the accepted one.
    const pending = new Map<string, { timer: NodeJS.Timeout; session?: Http2Session }>();
    listener.prependListener("connection", (socket: Socket) => {
      const peer = peerOf(socket);
      // Once HTTP/2 owns the socket only its session can close the connection.
      const entry: { timer: NodeJS.Timeout; session?: Http2Session } = {
        timer: setTimeout(() => (entry.session === undefined ? socket.destroy() : entry.session.destroy()), limits.handshakeTimeoutMs),
      };
      pending.set(peer, entry);
      socket.once("close", () => {
        clearTimeout(entry.timer);
        if (pending.get(peer) === entry) pending.delete(peer);
      });
    });
    listener.on("session", (session: Http2Session) => {
      const peer = peerOf(session.socket);
      const entry = pending.get(peer);
      if (entry === undefined) return;
      entry.session = session;
      session.once("remoteSettings", () => {
        clearTimeout(entry.timer);
        if (pending.get(peer) === entry) pending.delete(peer);
      });
      session.once("close", () => {
        clearTimeout(entry.timer);
        if (pending.get(peer) === entry) pending.delete(peer);
      });
    });
  }
}
