// The diff report: one findings list, the stable JSON contract every renderer reads.
// docs/diff-report.schema.json describes the same shape for consumers of the JSON format.
import type { Direction, LiteralValue, Side } from "../model/model.js";
import type { RuleId } from "./rules.js";

export type { Side };

export type Severity = "breaking" | "warning" | "info";

export type FindingKind = "method" | "notification" | "type" | "field" | "enum-member" | "capability" | "constant";

export type Change = "added" | "removed" | "changed";

/** A printed type, a constant's value, or a short fact such as a capability path. */
export type Value = LiteralValue | null;

export interface Finding {
  kind: FindingKind;
  change: Change;
  /** Wire method, schema type name, `<Interface>.<property>`, `<Type>=<value>`, or constant name. */
  name: string;
  rule: RuleId;
  severity: Severity;
  /** `severity === "breaking"`, for consumers that only gate. */
  breaking: boolean;
  /** Whose code built on the old revision must act (empty for additions that need nothing). */
  affects: Side[];
  before: Value;
  after: Value;
  detail: string;
  /** Types other than the declaring one whose resolved shape changes because of this finding. */
  inheritedBy?: string[];
  /** Directions of a method or notification finding. */
  directions?: Direction[];
  /** Messages that carry the changed item (`tools/call request`, `tools/list result`, `JSON-RPC messages`). */
  carriedBy: string[];
  /** The spec page for the item, in the revision where it exists (the new one unless removed). */
  link: string;
}

export interface Summary {
  total: number;
  breaking: number;
  warning: number;
  info: number;
  /** Breaking findings that affect each side. */
  breakingFor: Record<Side, number>;
  byKind: Record<FindingKind, Record<Change, number>>;
}

export interface DiffReport {
  from: string;
  to: string;
  summary: Summary;
  changes: Finding[];
}

export const FINDING_KINDS: FindingKind[] = [
  "method",
  "notification",
  "capability",
  "type",
  "field",
  "enum-member",
  "constant",
];
export const CHANGES: Change[] = ["added", "removed", "changed"];
export const SIDES: Side[] = ["client", "server"];
