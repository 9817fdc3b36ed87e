import { test } from "node:test";
import assert from "node:assert/strict";
import { LOG_EXIT_FLUSH_MS } from "@crs/runtime";
import { startServiceProcess } from "../support/service-process.js";
import { maintenanceClient } from "../support/clients.js";

// Well past the pipe's 64 KiB and what the reading side buffers, so the service's log writes
// find the pipe full: each call logs one debug line of about 150 bytes.
const CALLS = 6000;

test("a log reader that stops reading neither stalls the service nor holds its exit past SIGTERM", async () => {
  const service = await startServiceProcess("crs-state", { LOG_LEVEL: "debug" });
  const client = maintenanceClient(service.port);
  try {
    // The reader stops taking lines, as a stuck log collector does; the pipe fills.
    service.child.stdout?.pause();
    let done = 0;
    await Promise.all(
      Array.from({ length: 16 }, async () => {
        while (done < CALLS) {
          done += 1;
          await client.listProjects({ pageSize: 1 });
        }
      }),
    );
    assert.ok(done >= CALLS, "every call was answered while the log pipe was full");
    const started = Date.now();
    const exited = service.stop("SIGTERM");
    const bound = LOG_EXIT_FLUSH_MS + 8000;
    const code = await Promise.race([exited, new Promise<"hung">((resolve) => setTimeout(() => resolve("hung"), bound).unref())]);
    assert.notEqual(code, "hung", `the process exits within ${bound} ms of SIGTERM though its log reader stopped reading`);
    assert.equal(code, 0, "and exits 0");
    assert.ok(Date.now() - started < bound);
  } finally {
    client.close();
    await service.stop("SIGKILL");
  }
});
