import { describe, it } from "node:test";
import assert from "node:assert/strict";
import type { DescMessage } from "@bufbuild/protobuf";
import { crsStateFiles } from "@crs/contracts";
import { ResponseHeaderSchema } from "@crs/contracts/gen/crs/state/v1/common_pb";

/** True when `message`, or a message in one of its fields (a stream's first part), has a `project_id`. */
function namesProject(message: DescMessage): boolean {
  return message.fields.some((f) => f.name === "project_id" || f.message?.fields.some((g) => g.name === "project_id") === true);
}

/** True when `message` carries a ResponseHeader, or a stream's first part (a message field of it) does. */
function carriesHeader(message: DescMessage): boolean {
  const isHeader = (m: DescMessage | undefined): boolean => m?.typeName === ResponseHeaderSchema.typeName;
  return message.fields.some((f) => isHeader(f.message) || f.message?.fields.some((g) => isHeader(g.message)) === true);
}

describe("responses of crs.state.v1", () => {
  it("every per-project answer carries a ResponseHeader, so no client is left without the project's uid and generation", () => {
    const methods = crsStateFiles.flatMap((file) => file.services.flatMap((s) => s.methods));
    const perProject = methods.filter((m) => namesProject(m.input));
    const missing = perProject.filter((m) => !carriesHeader(m.output)).map((m) => `${m.parent.name}.${m.name}`);
    assert.deepEqual(missing, []);
    // The guard holds only while it sees the per-project methods (a renamed field would hide them).
    assert.ok(perProject.length >= 72, `${perProject.length} per-project methods seen`);
  });
});
