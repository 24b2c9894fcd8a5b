// The diff report: one findings list, the stable JSON contract every renderer reads.
// docs/diff-report.schema.json describes the same shape for consumers of the JSON format.
import type { Direction, LiteralValue, Side } from "../../model/model.js";
import type { RuleId, Severity } from "./rules.js";

export type { Side };

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

/**
 * Findings about the same thing under the same rule and of one severity, listed as one: a
 * union's members, a method's two directions. Reports list items; `changes` keeps one finding per fact.
 */
export interface Item {
  /** Anchor of the item in the HTML report, unique within a report: `<kind>-<name>-<rule>`. */
  id: string;
  kind: FindingKind;
  change: Change;
  name: string;
  rule: RuleId;
  severity: Severity;
  breaking: boolean;
  /** Every side any of its findings affects. */
  affects: Side[];
  /** Every direction of its findings (methods and notifications). */
  directions?: Direction[];
  /** Positions in `changes` of its findings, in order. */
  findings: number[];
}

/** The structural themes a report opens with. */
export type Theme = "handshake" | "delivery" | "removed" | "deprecated" | "added" | "shared" | "widened";

export interface Highlight {
  theme: Theme;
  /** Ids of the items that make up the theme, in report order. */
  items: string[];
}

export interface DiffReport {
  from: string;
  to: string;
  /** The target revision's own changelog page, where the spec publishes one. */
  changelog?: string;
  summary: Summary;
  /** A few themes, computed from the items; empty when nothing stands out. */
  highlights: Highlight[];
  /** The findings as reports list them: grouped, in the order of `changes`. */
  items: Item[];
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
