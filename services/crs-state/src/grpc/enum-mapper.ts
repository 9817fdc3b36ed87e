import {
  ClauseScope,
  ConstraintType,
  IndexKind,
  ProofStatus,
  ProofUpdateType,
  SignalSource,
} from "@crs/contracts/gen/crs/state/v1/types_pb";
import { invalidArgument } from "@crs/runtime";
import type {
  ClauseScope as DomainScope,
  ConstraintType as DomainConstraintType,
  ProofStatus as DomainStatus,
  ProofUpdateType as DomainUpdateType,
  SignalSource as DomainSource,
} from "@crs/domain/state";

/** A two-way table between a proto enum and the engine's string union. */
interface EnumTable<P extends number, D extends string> {
  /** Engine value of a wire value; INVALID_ARGUMENT naming `field` for values outside the enum. */
  toDomain(value: P, field: string): D;
  /** Wire value of an engine value. */
  toProto(value: D): P;
}

function table<P extends number, D extends string>(rows: readonly (readonly [P, D])[]): EnumTable<P, D> {
  const toD = new Map<number, D>(rows);
  const toP = new Map<D, P>(rows.map(([p, d]) => [d, p]));
  return {
    toDomain(value, field) {
      const d = toD.get(value);
      if (d === undefined) throw invalidArgument(field, `value ${value} is not valid`);
      return d;
    },
    toProto: (value) => toP.get(value) as P,
  };
}

/** Signal sources; UNSPECIFIED is the engine's "unknown", which no change may carry. */
export const sources = table<SignalSource, DomainSource>([
  [SignalSource.UNSPECIFIED, "unknown"],
  [SignalSource.HARD, "hard"],
  [SignalSource.SOFT, "soft"],
  [SignalSource.SAFETY, "safety"],
]);

/** Proof statuses. */
export const statuses = table<ProofStatus, DomainStatus>([
  [ProofStatus.UNSPECIFIED, "unknown"],
  [ProofStatus.PROVEN, "proven"],
  [ProofStatus.DISPROVEN, "disproven"],
  [ProofStatus.EXPANDED, "expanded"],
]);

/** Constraint types; UNSPECIFIED as a filter means every type. */
export const constraintTypes = table<ConstraintType, DomainConstraintType>([
  [ConstraintType.UNSPECIFIED, "unknown"],
  [ConstraintType.MUTUAL_EXCLUSION, "mutual_exclusion"],
  [ConstraintType.IMPLICATION, "implication"],
  [ConstraintType.ORDERING, "ordering"],
  [ConstraintType.RESOURCE, "resource"],
]);

/** Proof update operations; UNSPECIFIED is rejected. */
export const updateTypes = table<ProofUpdateType, DomainUpdateType>([
  [ProofUpdateType.INCREMENT, "increment"],
  [ProofUpdateType.DECREMENT, "decrement"],
  [ProofUpdateType.DISPROVEN, "disproven"],
  [ProofUpdateType.PROVEN, "proven"],
  [ProofUpdateType.RESET, "reset"],
]);

const scopes = table<ClauseScope, DomainScope>([
  [ClauseScope.SESSION, "session"],
  [ClauseScope.PROJECT, "project"],
  [ClauseScope.GLOBAL, "global"],
]);

/** Clause scope of a wire value; UNSPECIFIED is stored as project scope. */
export function scopeToDomain(value: ClauseScope, field: string): DomainScope {
  return value === ClauseScope.UNSPECIFIED ? "project" : scopes.toDomain(value, field);
}

/** Wire value of a clause scope. */
export function scopeToProto(value: DomainScope): ClauseScope {
  return scopes.toProto(value);
}

/** Index kinds in IndexKind order, by the engine's index names. */
export const INDEX_KINDS = {
  proof: IndexKind.PROOF,
  constraint: IndexKind.CONSTRAINT,
  similarity: IndexKind.SIMILARITY,
  dependency: IndexKind.DEPENDENCY,
  history: IndexKind.HISTORY,
  streaming: IndexKind.STREAMING,
  clause: IndexKind.CLAUSE,
  step: IndexKind.STEP,
  analytics: IndexKind.ANALYTICS,
} as const;
