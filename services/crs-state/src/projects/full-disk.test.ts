import assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
import { test } from "node:test";
import { eventually } from "@crs/runtime/testing";
import { LevelStore } from "../store/level-store.js";
import { withTempDir } from "../store/test-support.js";
import { answerOf, similarity } from "./host-conformance.js";
import { StoreHost } from "./store-host.js";

// A real full disk: a small tmpfs, so LevelDB itself meets ENOSPC part-way through appending to its
// log. Mounting needs privileges; where they are missing the test is skipped.
function mountTmpfs(dir: string, size: string, remount = false): boolean {
  try {
    execFileSync("mount", ["-t", "tmpfs", "-o", `${remount ? "remount," : ""}size=${size}`, "tmpfs", dir], { stdio: "ignore" });
    return true;
  } catch {
    return false;
  }
}

test("a disk that fills and frees loses no write acknowledged after it frees, across a restart", async (t) => {
  await withTempDir("crs-full-disk-", async (dir) => {
    if (!mountTmpfs(dir, "600k")) {
      t.skip("cannot mount a tmpfs here");
      return;
    }
    const open: StoreHost[] = [];
    try {
      const host = new StoreHost(await LevelStore.open(dir), { probeIntervalMs: 20 });
      open.push(host);
      await host.create("p", {});
      await host.create("q", {});
      let filled = 0;
      for (;;) {
        try {
          await host.mutate("p", { method: "Apply" }, similarity(`a${filled}`, "m", 0.5), answerOf);
        } catch (e) {
          assert.equal((e as { code?: unknown }).code, "STORE_UNAVAILABLE", "a full disk fails the write as retryable");
          break;
        }
        filled += 1;
      }
      assert.ok(filled > 0, "some writes fit before the disk filled");
      assert.ok(mountTmpfs(dir, "8m", true), "the disk grows");
      await eventually(() => host.serving());
      for (let i = 0; i < 20; i++) await host.mutate("q", { method: "Apply" }, similarity(`b${i}`, "m", 0.5), answerOf);
      await host.close();
      const again = new StoreHost(await LevelStore.open(dir));
      open.push(again);
      assert.equal(await again.read("p", (v) => v.header.generation), filled, "every write acknowledged before the disk filled");
      assert.equal(await again.read("q", (v) => v.header.generation), 20, "every write acknowledged after it freed");
      await again.close();
    } finally {
      for (const h of open) await h.close().catch(() => undefined);
      execFileSync("umount", ["-l", dir], { stdio: "ignore" });
    }
  });
});
