// The few structural themes a report opens with, computed from its items and the two models'
// protocol facts (which requests set a connection up, which result asks for input, which union
// is the JSON-RPC envelope): nothing here names a revision or a method. Each item belongs to
// at most one theme, the first that claims it.
import type { Model } from "../../model/model.js";
import { ENVELOPE_CARRIER } from "./carriers.js";
import type { Finding, Highlight, Item, Theme } from "./findings.js";
import { findingsOf } from "./items.js";
import type { RuleId } from "./rules.js";

/** A breaking change to data this many messages carry is a theme of its own. */
const WIDELY_CARRIED = 4;

interface Context {
  /** Requests and notifications that set a connection up: handshake or discovery, in either revision. */
  setup: Set<string>;
  /** Types whose fields every request or result carries in `_meta`. */
  metaTypes: string[];
  /** The result that asks the caller for input, in the new revision. */
  inputRequired?: string;
  envelopes: Set<string>;
}

type Claim = (item: Item, findings: Finding[], context: Context) => boolean;

const has =
  (...rules: RuleId[]): Claim =>
  (item) =>
    rules.includes(item.rule);

/** In the order reports show them. */
const THEMES: { theme: Theme; claims: Claim }[] = [
  {
    theme: "handshake",
    claims: (item, _findings, c) =>
      ((item.kind === "method" || item.kind === "notification") && c.setup.has(item.name)) ||
      c.metaTypes.some((type) => item.name.startsWith(`${type}.`)),
  },
  {
    theme: "delivery",
    claims: (item, findings, c) =>
      has("REQUEST_DELIVERY_CHANGED", "METHOD_DIRECTION_CHANGED", "METHOD_KIND_CHANGED")(item, findings, c) ||
      (item.rule.startsWith("RESULT_") &&
        c.inputRequired !== undefined &&
        findings.some((f) =>
          String(f.after)
            .split(" | ")
            .includes(c.inputRequired as string),
        )) ||
      (item.kind === "type" &&
        c.envelopes.has(item.name) &&
        has("UNION_MEMBER_ADDED", "UNION_MEMBER_REMOVED")(item, findings, c)),
  },
  {
    theme: "removed",
    claims: has("REQUEST_REMOVED", "NOTIFICATION_REMOVED", "CAPABILITY_REMOVED", "ERROR_CODE_REMOVED"),
  },
  {
    theme: "deprecated",
    claims: (item) => item.rule === "DEPRECATED" && ["method", "notification", "capability"].includes(item.kind),
  },
  {
    theme: "added",
    claims: has("REQUEST_ADDED", "REQUEST_ADDED_UNGATED", "NOTIFICATION_ADDED", "CAPABILITY_ADDED", "ERROR_CODE_ADDED"),
  },
  {
    theme: "shared",
    claims: (item, findings) => {
      const carriers = new Set(findings.flatMap((f) => f.carriedBy));
      return item.breaking && (carriers.size >= WIDELY_CARRIED || carriers.has(ENVELOPE_CARRIER));
    },
  },
  {
    theme: "widened",
    claims: has("UNION_MEMBER_ADDED", "ENUM_MEMBER_ADDED", "TYPE_WIDENED", "FIELD_TYPE_WIDENED", "CONSTRAINT_LOOSENED"),
  },
];

export function highlightsOf(items: Item[], changes: Finding[], before: Model, after: Model): Highlight[] {
  const context: Context = {
    setup: new Set(
      [before, after].flatMap(({ protocol: p }) =>
        [p.handshake?.request, p.handshake?.notification, p.discovery?.request].filter((m) => m !== undefined),
      ),
    ),
    metaTypes: [before, after].flatMap(({ protocol: p }) =>
      [p.requestMeta?.type, p.resultMeta?.type].filter((t) => t !== undefined),
    ),
    ...(after.protocol.inputRequired ? { inputRequired: after.protocol.inputRequired.result } : {}),
    envelopes: new Set([before.envelopes.union, after.envelopes.union].filter((u) => u !== "")),
  };
  const themed = new Map<Theme, string[]>();
  for (const item of items) {
    const findings = findingsOf(item, changes);
    const found = THEMES.find((t) => t.claims(item, findings, context));
    if (found) themed.set(found.theme, [...(themed.get(found.theme) ?? []), item.id]);
  }
  return THEMES.flatMap(({ theme }) => {
    const ids = themed.get(theme);
    return ids ? [{ theme, items: ids }] : [];
  });
}
