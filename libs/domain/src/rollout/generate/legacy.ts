import { bare, messageItem } from "./lines.js";
import { nextCallId, push, type SessionState } from "./session.js";
import { planExchange } from "./tools.js";

// A pre-wrapper rollout (≤ 2025-09): a bare SessionMeta, `record_type: state` markers and bare
// response items without timestamps.

/** Writes the whole body of a legacy rollout up to `targetBytes`. */
export function writeLegacyRollout(s: SessionState, id: string, startMs: number, targetBytes: number, bigLineBytes: number): void {
  let bigLeft = bigLineBytes;
  push(
    s,
    bare({
      id,
      timestamp: new Date(startMs).toISOString(),
      instructions: `Follow the repository conventions.${s.plant("instructions")}`,
      git: { commit_hash: s.rng.hex(40), branch: "main" },
    }),
  );
  push(s, bare({ record_type: "state" }));
  do {
    push(s, bare(messageItem("user", `Add input validation to the parser.${s.plant("prompt")}`)));
    const steps = s.rng.int(1, 8);
    for (let i = 0; i < steps; i++) {
      push(
        s,
        bare({
          type: "reasoning",
          id: `rs_${s.rng.hex(16)}`,
          summary: [{ type: "summary_text", text: `Reading the parser${s.plant("reasoning")}` }],
        }),
      );
      const ex = planExchange({
        rng: s.rng,
        plant: s.plant,
        callId: nextCallId(s),
        style: "shell",
        repeat: null,
        outputBytes: bigLeft > 0 ? bigLeft : s.rng.int(40, 2000),
      });
      bigLeft = 0;
      push(s, bare(ex.call));
      if (ex.output !== null) push(s, bare(ex.output));
      push(s, bare({ record_type: "state" }));
    }
    push(s, bare(messageItem("assistant", `Validation added.${s.plant("agent_message")}`)));
  } while (s.bytes < targetBytes);
}
