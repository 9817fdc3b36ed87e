import { fromBinary, type DescMessage, type MessageInitShape, type MessageShape } from "@bufbuild/protobuf";
import { EntryIndex, type MutationOptions } from "@crs/contracts/gen/crs/state/v1/common_pb";
import { encodeMessage, encodedMessage, invalidArgument, requireSafeCount, type EncodedMessage } from "@crs/runtime";
import type { Mutation, StateEngine } from "@crs/domain/state";
import type { MutationOutcome, MutationRequest, ProjectHeader, ProjectHost } from "../projects/index.js";
import { optionalId, requireAtMost, requireKey } from "./ids.js";
import { CrsStateError } from "../errors.js";
import { protoPath, renamed, withFieldPaths } from "./field-paths.js";
import { requestFingerprint } from "./request-fingerprint.js";

/** Most entry preconditions one mutation may carry. */
export const MAX_EXPECTED_ENTRIES = 100;

/** An entry precondition in the engine's terms. */
export interface ExpectedEntry {
  /** Index of the entry. */
  readonly index: "proof" | "constraint" | "clause" | "similarity";
  /** Key of the entry; a similarity pair is the JSON array of its two keys. */
  readonly key: string;
  /** Expected generation of its last change; 0 means absent. */
  readonly modGeneration: number;
}

/** The engine options a handler passes into its mutation body. */
export interface EngineOptions {
  /** Per-entry preconditions checked by the engine before it changes anything. */
  readonly expectedEntries?: readonly ExpectedEntry[];
}

const INDEX_NAMES: Partial<Record<EntryIndex, ExpectedEntry["index"]>> = {
  [EntryIndex.PROOF]: "proof",
  [EntryIndex.CONSTRAINT]: "constraint",
  [EntryIndex.CLAUSE]: "clause",
  [EntryIndex.SIMILARITY]: "similarity",
};

/** Validates `options.expected_entries` and turns them into engine preconditions. */
export function expectedEntries(options: MutationOptions | undefined): readonly ExpectedEntry[] {
  const list = requireAtMost(options?.expectedEntries ?? [], MAX_EXPECTED_ENTRIES, "options.expected_entries");
  return list.map((e, i) => {
    const at = `options.expected_entries[${i}]`;
    const index = INDEX_NAMES[e.index];
    if (index === undefined) throw invalidArgument(`${at}.index`, "must name an index");
    const key = requireKey(e.key, `${at}.key`);
    const modGeneration = requireSafeCount(e.modGeneration, `${at}.mod_generation`);
    if (index === "similarity") return { index, key: JSON.stringify([key, requireKey(e.otherKey, `${at}.other_key`)]), modGeneration };
    if (e.otherKey !== "") throw invalidArgument(`${at}.other_key`, "is only for similarity pairs");
    return { index, key, modGeneration };
  });
}

/** How one RPC's mutation is identified and checked. */
export interface MutationCall<Req extends DescMessage, Res extends DescMessage> {
  /** The RPC's method name, part of the idempotency check. */
  readonly method: string;
  /** The project. */
  readonly projectId: string;
  /** The request schema, for its fingerprint. */
  readonly requestSchema: Req;
  /** The request as received. */
  readonly request: MessageShape<Req> & { readonly options?: MutationOptions | undefined };
  /** The response schema: answers are stored encoded for idempotent replay. */
  readonly responseSchema: Res;
  /** Only validate: nothing is journaled or remembered. */
  readonly validateOnly?: boolean;
  /** The proto path of an engine field the body's input was validated under; snake_case of the engine name by default. */
  readonly fieldPath?: (engineField: string) => string;
}

/** Fields the host and the engine name for mutation options, and their paths in a request's `options`. */
const OPTION_FIELDS: Readonly<Record<string, string>> = {
  expectedGeneration: "options.expected_generation",
  expected_generation: "options.expected_generation",
  expected_project_uid: "options.expected_project_uid",
  request_id: "options.request_id",
};

function optionPath(field: string): string | undefined {
  return OPTION_FIELDS[field] ?? (field.startsWith("expectedEntries") ? protoPath("options", field) : undefined);
}

/** A host error about an option, renamed to the option's place in the request. */
export function withOptionPath(e: unknown): unknown {
  if (e instanceof CrsStateError) {
    const path = optionPath(e.metadata["field"] ?? "");
    return path === undefined ? e : new CrsStateError(e.code, e.detail, { ...e.metadata, field: path }, { cause: e });
  }
  return renamed(e, (f) => optionPath(f) ?? f);
}

/** The host's view of a mutation and the engine preconditions its body must pass on. */
export interface PreparedMutation {
  /** Idempotency key, fingerprint and host-checked preconditions. */
  readonly request: MutationRequest;
  /** Preconditions the engine checks. */
  readonly engineOptions: EngineOptions;
}

/** Checks a call's options and splits them between the host and the engine. */
export function prepareMutation<Req extends DescMessage, Res extends DescMessage>(call: MutationCall<Req, Res>): PreparedMutation {
  const options = call.request.options;
  const requestId = optionalId(options?.requestId ?? "", "options.request_id");
  const expectedUid = options?.expectedProjectUid ?? "";
  const generation = options?.expectedGeneration;
  const entries = expectedEntries(options);
  // Built field by field: only the options a call sets are present.
  const request: { -readonly [K in keyof MutationRequest]: MutationRequest[K] } = { method: call.method };
  if (requestId !== "") {
    request.requestId = requestId;
    request.fingerprint = requestFingerprint(call.method, call.requestSchema, call.request);
  }
  if (expectedUid !== "") request.expectedUid = expectedUid;
  if (generation !== undefined) request.expectedGeneration = requireSafeCount(generation, "options.expected_generation");
  if (call.validateOnly === true) request.validateOnly = true;
  return {
    request,
    engineOptions: entries.length === 0 ? {} : { expectedEntries: entries },
  };
}

/** {@link prepareMutation} for a restore or an import, which replace every entry: entry preconditions cannot apply to them. */
export function prepareRestore<Req extends DescMessage, Res extends DescMessage>(call: MutationCall<Req, Res>): MutationRequest {
  const { request, engineOptions } = prepareMutation(call);
  if (engineOptions.expectedEntries !== undefined)
    throw invalidArgument("options.expected_entries", "entry preconditions do not apply to a restore, which replaces every entry");
  return request;
}

/** Encodes a response so the host can store it with the mutation for replay. */
export function encodeAnswer<Res extends DescMessage>(schema: Res, init: MessageInitShape<Res>): Uint8Array {
  return encodeMessage(schema, init);
}

/**
 * The host's answer as sent: a fresh answer goes out in the bytes the host stored (they already
 * say `replayed: false`); a replayed one is decoded to mark it replayed in its header.
 */
export function decodeAnswer<Res extends DescMessage>(schema: Res, outcome: MutationOutcome): MessageShape<Res> | EncodedMessage<Res> {
  if (!outcome.replayed) return encodedMessage(schema, outcome.answer);
  const answer = fromBinary(schema, outcome.answer) as MessageShape<Res> & { header?: { replayed: boolean } };
  if (answer.header !== undefined) answer.header.replayed = true;
  return answer;
}

/**
 * Runs one engine mutation through the host: checks the options, hands the engine preconditions to
 * `body`, encodes the answer with `respond` so it can be stored, and marks replayed answers.
 */
export async function runMutation<Req extends DescMessage, Res extends DescMessage, R>(
  host: ProjectHost,
  call: MutationCall<Req, Res>,
  body: (engine: StateEngine, options: EngineOptions) => Mutation<R>,
  respond: (result: R, header: ProjectHeader) => MessageInitShape<Res>,
): Promise<MessageShape<Res> | EncodedMessage<Res>> {
  const { request, engineOptions } = prepareMutation(call);
  const path = call.fieldPath ?? ((f: string) => protoPath("", f));
  let outcome: MutationOutcome;
  try {
    outcome = await host.mutate(
      call.projectId,
      request,
      (engine) =>
        withFieldPaths(
          (f) => optionPath(f) ?? path(f),
          () => body(engine, engineOptions),
        ),
      (result, header) => encodeAnswer(call.responseSchema, respond(result, header)),
    );
  } catch (e) {
    throw withOptionPath(e);
  }
  return decodeAnswer(call.responseSchema, outcome);
}
