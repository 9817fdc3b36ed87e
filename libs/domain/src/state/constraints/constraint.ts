/** Constraints between nodes: the value type of the constraint index. */

import { invalidArgument } from "../errors.js";
import { frozenWith } from "../freeze.js";
import { isTimestamp } from "../proof/proof-number.js";
import { requireSource, type SignalSource } from "../signals.js";

/** Kind of relation a constraint expresses. */
export type ConstraintType = "unknown" | "mutual_exclusion" | "implication" | "ordering" | "resource";

/** All constraint types in enum order. */
export const CONSTRAINT_TYPES: readonly ConstraintType[] = ["unknown", "mutual_exclusion", "implication", "ordering", "resource"];

/** A constraint over a set of nodes. */
export interface Constraint {
  /** Unique id within the project. */
  readonly id: string;
  /** Relation kind. */
  readonly type: ConstraintType;
  /** Nodes the constraint covers, in caller order. */
  readonly nodes: readonly string[];
  /** Free-form expression. */
  readonly expression: string;
  /** Whether the constraint is in force. */
  readonly active: boolean;
  /** Origin of the constraint. */
  readonly source: SignalSource;
  /** Unix ms of creation. */
  readonly createdAt: number;
}

/** Checks a constraint's shape; throws INVALID_ARGUMENT naming the field under `field`. */
export function validateConstraint(c: Constraint, field: string): void {
  if (typeof c.id !== "string" || c.id === "") throw invalidArgument(`${field}.id`, "constraint id must not be empty");
  if (!CONSTRAINT_TYPES.includes(c.type)) throw invalidArgument(`${field}.type`, `constraint type ${String(c.type)} is not valid`);
  if (!Array.isArray(c.nodes)) throw invalidArgument(`${field}.nodes`, "constraint nodes must be a list");
  c.nodes.forEach((n, i) => {
    if (typeof n !== "string" || n === "") throw invalidArgument(`${field}.nodes[${i}]`, "constraint node must not be empty");
  });
  if (typeof c.expression !== "string") throw invalidArgument(`${field}.expression`, "expression must be a string");
  if (typeof c.active !== "boolean") throw invalidArgument(`${field}.active`, "active must be a boolean");
  requireSource(c.source, `${field}.source`);
  if (!isTimestamp(c.createdAt)) throw invalidArgument(`${field}.createdAt`, "createdAt must be non-negative Unix ms");
}

/** A frozen copy, so stored constraints never alias caller arrays. */
export function freezeConstraint(c: Constraint): Constraint {
  return frozenWith(c, { nodes: Object.freeze([...c.nodes]) });
}
