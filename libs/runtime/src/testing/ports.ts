import { once } from "node:events";
import { createServer } from "node:net";

/** A loopback port free a moment ago, for a helper process (a private Redis) that takes its port as an argument. */
export async function freePort(): Promise<number> {
  const server = createServer().listen(0, "127.0.0.1");
  await once(server, "listening");
  const { port } = server.address() as { port: number };
  server.close();
  return port;
}
