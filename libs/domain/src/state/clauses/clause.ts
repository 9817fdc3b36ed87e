/** Learned clauses: disjunctions of literals over boolean facts about a session. */

import { compareUtf8 } from "../bytes.js";
import { invalidArgument } from "../errors.js";
import { isTimestamp } from "../proof/proof-number.js";
import { isHard, isValidSource, type SignalSource } from "../signals.js";

/** A possibly negated boolean variable such as `tool:Grep`. */
export interface Literal {
  /** Variable name, conventionally `<kind>:<value>`. */
  readonly variable: string;
  /** True for the negation of the variable. */
  readonly negated: boolean;
}

/** Reach and lifetime of a clause: a session's clauses bind only its decisions and end with it; project and global ones bind every session and expire by TTL. */
export type ClauseScope = "session" | "project" | "global";

/** Valid scopes. */
export const CLAUSE_SCOPES: readonly ClauseScope[] = ["session", "project", "global"];

/** A learned clause; it is violated when every literal is false. */
export interface Clause {
  /** Unique id. */
  readonly id: string;
  /** Literals, in caller order. */
  readonly literals: readonly Literal[];
  /** Origin; must be hard. */
  readonly source: SignalSource;
  /** Unix ms when first learned. */
  readonly learnedAt: number;
  /** Unix ms when last learned again; the TTL counts from here. */
  readonly refreshedAt: number;
  /** Failure kind that produced the clause. */
  readonly failureType: string;
  /** Lifetime scope. */
  readonly scope: ClauseScope;
  /** Owning session; required for session scope. */
  readonly sessionId: string;
  /** How often the clause blocked a decision or was re-learned. */
  readonly useCount: number;
  /** Unix ms of the last use (0 = never). */
  readonly lastUsed: number;
}

/** Truth values of variables: true, false, or undefined when unassigned. */
export interface Assignment {
  /** Value of `variable`, or undefined when unassigned. */
  value(variable: string): boolean | undefined;
  /** Variables assigned true, used to consult the watch index. */
  trueVariables(): Iterable<string>;
}

/** Three-valued assignment from explicit values; variables not listed are unassigned. */
export function explicitAssignment(values: ReadonlyMap<string, boolean> | Readonly<Record<string, boolean>>): Assignment {
  const map = values instanceof Map ? new Map(values) : new Map(Object.entries(values as Record<string, boolean>));
  return {
    value: (v) => map.get(v),
    trueVariables: () => [...map].filter(([, b]) => b).map(([v]) => v),
  };
}

/**
 * Closed-world assignment over distinct true variables: a class rather than closures, so a
 * decision check allocates one object; a long list is looked up through a set.
 */
export class ClosedWorldAssignment implements Assignment {
  private readonly set: ReadonlySet<string> | undefined;

  /** `vars` must be distinct; every other variable is false. */
  constructor(private readonly vars: readonly string[]) {
    this.set = vars.length > 8 ? new Set(vars) : undefined;
  }

  /** True when listed, false otherwise. */
  value(variable: string): boolean {
    return this.set === undefined ? this.vars.includes(variable) : this.set.has(variable);
  }

  /** The listed variables. */
  trueVariables(): readonly string[] {
    return this.vars;
  }
}

/** Closed-world assignment: the listed variables are true and every other variable is false. */
export function closedWorldAssignment(trueVars: Iterable<string>): Assignment {
  return new ClosedWorldAssignment([...new Set(trueVars)]);
}

/** Renders a literal, e.g. `¬tool:Grep`. */
export function literalString(l: Literal): string {
  return l.negated ? `¬${l.variable}` : l.variable;
}

/** Renders a clause as `(a ∨ ¬b)`, or `(empty)`. */
export function clauseString(c: Pick<Clause, "literals">): string {
  return c.literals.length === 0 ? "(empty)" : `(${c.literals.map(literalString).join(" ∨ ")})`;
}

/** Unambiguous key of a literal: a fixed sign marker, then the variable. */
export function literalKey(l: Literal): string {
  return `${l.negated ? "-" : "+"}${l.variable}`;
}

/** Key shared by clauses with the same literal set (order and repetition ignored). */
export function clauseSignature(literals: readonly Literal[]): string {
  return JSON.stringify([...new Set(literals.map(literalKey))].sort(compareUtf8));
}

/** Value of a literal, or undefined when its variable is unassigned. */
export function literalValue(l: Literal, assignment: Assignment): boolean | undefined {
  const v = assignment.value(l.variable);
  return v === undefined ? undefined : v !== l.negated;
}

/** Three-valued violation: every literal assigned and false. */
export function isViolated(c: Pick<Clause, "literals">, assignment: Assignment): boolean {
  for (const l of c.literals) if (literalValue(l, assignment) !== false) return false;
  return true;
}

/** Checks the clause's shape; throws INVALID_ARGUMENT naming the field. */
export function validateClause(c: Clause): void {
  if (typeof c.id !== "string" || c.id === "") throw invalidArgument("id", "clause ID must not be empty");
  if (!Array.isArray(c.literals) || c.literals.length === 0) throw invalidArgument("literals", "clause must have at least one literal");
  c.literals.forEach((l, i) => {
    if (l === null || typeof l !== "object") throw invalidArgument(`literals[${i}]`, `literal ${i} must not be nil`);
    if (typeof l.variable !== "string" || l.variable === "")
      throw invalidArgument(`literals[${i}].variable`, `literal ${i} has empty variable`);
    if (typeof l.negated !== "boolean") throw invalidArgument(`literals[${i}].negated`, `literal ${i} negated must be a boolean`);
  });
  if (!isValidSource(c.source) || !isHard(c.source)) throw invalidArgument("source", "clause source must be hard (CDCL rule)");
  if (!CLAUSE_SCOPES.includes(c.scope)) throw invalidArgument("scope", `scope ${String(c.scope)} is not valid`);
  if (c.scope === "session" && c.sessionId === "") throw invalidArgument("sessionId", "session-scoped clause needs a session_id");
  if (typeof c.failureType !== "string") throw invalidArgument("failureType", "failure_type must be a string");
  for (const key of ["learnedAt", "refreshedAt", "lastUsed", "useCount"] as const) {
    if (!isTimestamp(c[key])) throw invalidArgument(key, `${key} must be a non-negative integer`);
  }
}
