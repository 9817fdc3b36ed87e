// Test support: rollout text of small records (150-250 bytes a line), made in chunks so a memory
// test can stream hundreds of megabytes without holding them.

/** Calls in each generated turn. */
export const CALLS_PER_TURN = 50;

/** Lines in each generated turn: a start, a call, an output and a token count per call, a completion. */
export const LINES_PER_TURN = 2 + 3 * CALLS_PER_TURN;

// A turn of short calls, each with a short output and a token count.
function turnText(turn: number, startMs: number): string {
  const at = (ms: number): string => new Date(startMs + ms).toISOString();
  const lines = [JSON.stringify({ timestamp: at(0), type: "event_msg", payload: { type: "task_started", turn_id: `t${turn}` } })];
  for (let c = 0; c < CALLS_PER_TURN; c += 1) {
    const id = `c${turn}-${c}`;
    const ms = 100 + c * 300;
    lines.push(
      JSON.stringify({
        timestamp: at(ms),
        type: "response_item",
        payload: { type: "function_call", name: "shell", arguments: JSON.stringify({ command: ["ls", `d${c % 7}`] }), call_id: id },
      }),
      JSON.stringify({
        timestamp: at(ms + 100),
        type: "response_item",
        payload: { type: "function_call_output", call_id: id, output: "Exit code: 0\nWall time: 0.1 seconds\nOutput:\nok" },
      }),
      JSON.stringify({
        timestamp: at(ms + 150),
        type: "event_msg",
        payload: {
          type: "token_count",
          info: { total_token_usage: { input_tokens: 1000 + c, output_tokens: c, total_tokens: 1000 + 2 * c } },
        },
      }),
    );
  }
  lines.push(
    JSON.stringify({
      timestamp: at(16_000),
      type: "event_msg",
      payload: { type: "task_complete", turn_id: `t${turn}`, duration_ms: 16_000 },
    }),
  );
  return `${lines.join("\n")}\n`;
}

/** Whole turns of small records in chunks of about 1 MB, until `totalBytes` have been made. */
export function* smallRecordChunks(totalBytes: number): Generator<{ readonly chunk: Buffer; readonly turns: number }> {
  let made = 0;
  let turn = 0;
  while (made < totalBytes) {
    let text = "";
    let turns = 0;
    while (text.length < 1024 ** 2) {
      text += turnText(turn, Date.UTC(2026, 2, 1) + turn * 20_000);
      turn += 1;
      turns += 1;
    }
    const chunk = Buffer.from(text);
    made += chunk.length;
    yield { chunk, turns };
  }
}
