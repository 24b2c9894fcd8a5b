// ci/: the report in CI's terms: the gate (gate.ts, `--fail-on`), accepted changes (ignore.ts,
// `--ignore`) and the CI formats (GitHub annotations, JUnit), shared with `mcp-gen tools --check`.
// This file: what the CI formats (GitHub annotations, JUnit) report: one entry per finding or other
// change, already judged by the command that makes them (the diff gate, the tools check) and
// written in its words: whether it trips the check, and how loudly to annotate it. The formats only
// lay entries out.

/** What a JUnit test case says: the entry trips the check, an --ignore entry accepts it, or neither. */
export type Outcome = "fail" | "accepted" | "pass";

/** The GitHub annotation an entry gets, if any. */
export type Annotation = "error" | "warning" | "notice";

export interface CiEntry {
  /** Groups entries (a JUnit test suite): the kind of subject. */
  group: string;
  /** Unique within a run: what changed, and where. */
  title: string;
  /** One line: what the change means and who must act. */
  message: string;
  /** The facts behind it, one per line. */
  details: string[];
  outcome: Outcome;
  annotation?: Annotation;
  /** For a failing entry: what kind of failure (`breaking`, `breaks callers`, …). */
  failure?: string;
  /** For `accepted`: the --ignore entry's reason. */
  reason?: string;
  /** A file in the user's project the entry is about, if there is one. */
  file?: string;
}

export interface CiRun {
  /** `mcp-gen diff 2025-06-18 → 2025-11-25` */
  name: string;
  entries: CiEntry[];
}
