// Planted secrets: distinctive strings the generator can write into every body a rollout carries,
// so a test can prove that no report, log line or cache ever repeats a body.

/** Every planted secret starts with this marker; a report containing it has leaked a body. */
export const PLANTED_SECRET_MARKER = "PLANTED-SECRET";

/** The bodies a secret is planted in. */
export type SecretPlace = "prompt" | "argument" | "output" | "reasoning" | "error" | "agent_message" | "patch" | "instructions";

/** Gives the text to append to a body of the given place ("" when planting is off). */
export type SecretPlanter = (place: SecretPlace) => string;

/** A planter: off, or on with a per-corpus token so two corpora carry different secrets. */
export function secretPlanter(enabled: boolean, token: string): SecretPlanter {
  if (!enabled) return () => "";
  return (place) => ` ${PLANTED_SECRET_MARKER}-${place}-${token}`;
}
