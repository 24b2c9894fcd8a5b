// The report as the Markdown and HTML templates lay it out: an upgrade guide. Summary first,
// then breaking changes grouped by who must act, warnings, additions, and the rest. One view
// builder for both formats; each format passes its own markup (escaping, code spans).
import { CHANGES, FINDING_KINDS, type DiffReport, type Finding, type FindingKind } from "../findings.js";
import type { RevisionLinks } from "../links.js";
import { RULES } from "../rules.js";

/** How a format writes prose and code. Every string the templates place went through one of these. */
export interface Markup {
  text(s: string): string;
  code(s: string): string;
  url(s: string): string;
}

export const KIND_TITLES: Record<FindingKind, string> = {
  method: "Methods",
  notification: "Notifications",
  capability: "Capabilities",
  type: "Types",
  field: "Fields",
  "enum-member": "Enum members",
  constant: "Constants",
};

interface Group {
  id: string;
  title: string;
  lead: string;
  test: (f: Finding) => boolean;
}

/** Earlier groups take precedence: a finding is listed once. */
const GROUPS: Group[] = [
  {
    id: "breaking-both",
    title: "Breaking: clients and servers must act",
    lead: "Code built on the old revision breaks on both sides.",
    test: (f) => f.breaking && f.affects.length === 2,
  },
  {
    id: "breaking-client",
    title: "Breaking: clients must act",
    lead: "Clients built on the old revision break; servers are unaffected.",
    test: (f) => f.breaking && f.affects.includes("client"),
  },
  {
    id: "breaking-server",
    title: "Breaking: servers must act",
    lead: "Servers built on the old revision break; clients are unaffected.",
    test: (f) => f.breaking && f.affects.includes("server"),
  },
  {
    id: "warnings",
    title: "Warnings",
    lead: "Deprecations, renames and removals: messages still interoperate, code may need changes.",
    test: (f) => f.severity === "warning",
  },
  {
    id: "additions",
    title: "Additions",
    lead: "New methods, capabilities, types and fields; nothing built on the old revision breaks.",
    test: (f) => f.change === "added" && f.rule !== "TYPE_EXTRACTED",
  },
  {
    id: "other",
    title: "Other changes",
    lead: "Moves, extractions, equivalent rewrites and markers; no action needed.",
    test: () => true,
  },
];

/** Lists longer than this are cut short in the reports (the JSON format has them all). */
const MAX_LISTED = 8;

export interface FindingView {
  id: string;
  name: string;
  kind: FindingKind;
  rule: string;
  severity: string;
  affects: string;
  summary: string;
  /** Before → after, the detail, the inheriting types and the messages: placed after the summary. */
  facts: string[];
  link: string;
  breaking: boolean;
  /** Who must act, in words: `clients`, `servers`, `clients and servers`. */
  who: string;
  /** Lower-case name and touched entities, for the HTML filter. */
  search: string;
}

export interface ReportView {
  from: string;
  to: string;
  fromUrl: string;
  toUrl: string;
  counts: { kind: string; added: number; removed: number; changed: number }[];
  totals: { total: number; breaking: number; warning: number; info: number; client: number; server: number };
  groups: {
    id: string;
    title: string;
    lead: string;
    count: number;
    kinds: { title: string; findings: FindingView[] }[];
  }[];
  /** The kinds present, for the HTML kind filter. */
  kindOptions: { kind: FindingKind; title: string }[];
  empty: boolean;
}

export function reportView(
  report: DiffReport,
  links: { from: RevisionLinks; to: RevisionLinks },
  markup: Markup,
): ReportView {
  const ids = findingIds(report.changes);
  const remaining = [...report.changes];
  const groups = GROUPS.map((group) => {
    const members = remaining.filter(group.test);
    for (const f of members) remaining.splice(remaining.indexOf(f), 1);
    const kinds = FINDING_KINDS.map((kind) => ({
      title: KIND_TITLES[kind],
      findings: members.filter((f) => f.kind === kind).map((f) => findingView(f, ids.get(f) as string, markup)),
    })).filter((k) => k.findings.length > 0);
    return { id: group.id, title: group.title, lead: markup.text(group.lead), count: members.length, kinds };
  }).filter((g) => g.count > 0);
  const s = report.summary;
  return {
    from: report.from,
    to: report.to,
    fromUrl: markup.url(links.from.specUrl),
    toUrl: markup.url(links.to.specUrl),
    counts: FINDING_KINDS.map((kind) => ({ kind: KIND_TITLES[kind], ...s.byKind[kind] })).filter((row) =>
      CHANGES.some((c) => row[c] > 0),
    ),
    totals: {
      total: s.total,
      breaking: s.breaking,
      warning: s.warning,
      info: s.info,
      client: s.breakingFor.client,
      server: s.breakingFor.server,
    },
    groups,
    kindOptions: FINDING_KINDS.filter((k) => report.changes.some((f) => f.kind === k)).map((kind) => ({
      kind,
      title: KIND_TITLES[kind],
    })),
    empty: s.total === 0,
  };
}

function findingView(f: Finding, id: string, markup: Markup): FindingView {
  return {
    id,
    name: markup.code(f.name),
    kind: f.kind,
    rule: f.rule,
    severity: f.severity,
    affects: f.affects.join(" "),
    summary: markup.text(RULES[f.rule].summary),
    facts: [
      changeText(f, markup),
      f.detail ? markup.text(f.detail) : "",
      f.inheritedBy ? `${markup.text("inherited by")} ${listed(f.inheritedBy, markup)}` : "",
      f.carriedBy.length > 0 ? `${markup.text("in")} ${listed(f.carriedBy, markup)}` : "",
    ].filter((fact) => fact !== ""),
    link: markup.url(f.link),
    breaking: f.breaking,
    who: markup.text(f.affects.map((side) => `${side}s`).join(" and ")),
    search: markup.text([f.name, ...touchedEntities(f)].join(" ").toLowerCase()),
  };
}

/** `a → b`; for something that appeared or went away inside a changed item, `+ b` or `− a`. */
function changeText(f: Finding, markup: Markup): string {
  const value = (v: Finding["before"]) => markup.code(String(v));
  if (f.before !== null && f.after !== null) return `${value(f.before)} → ${value(f.after)}`;
  const inside = f.change === "changed";
  if (f.after !== null) return inside ? `+ ${value(f.after)}` : value(f.after);
  if (f.before !== null) return inside ? `− ${value(f.before)}` : `${markup.text("was")} ${value(f.before)}`;
  return "";
}

function listed(items: string[], markup: Markup): string {
  const shown = items.slice(0, MAX_LISTED).map((i) => markup.code(i));
  const more = items.length - shown.length;
  return more > 0 ? `${shown.join(", ")} ${markup.text(`and ${more} more`)}` : shown.join(", ");
}

/**
 * Stable ids for linking into a report: `<kind>-<name>-<rule>`, numbered when a method has the
 * same finding in both directions.
 */
export function findingIds(findings: Finding[]): Map<Finding, string> {
  const ids = new Map<Finding, string>();
  const used = new Map<string, number>();
  for (const f of findings) {
    const base = `${f.kind}-${f.name.replace(/[^A-Za-z0-9._-]+/g, "-")}-${f.rule}`;
    const n = (used.get(base) ?? 0) + 1;
    used.set(base, n);
    ids.set(f, n === 1 ? base : `${base}-${n}`);
  }
  return ids;
}

/**
 * The methods, notifications and types a finding is about: its subject's own name (a field's
 * declaring type, an enum member's type), the types whose resolved shape it changes, and for
 * a rename the old name too.
 */
export function touchedEntities(f: Finding): string[] {
  const own =
    f.kind === "method" || f.kind === "notification" || f.kind === "constant" ? f.name : f.name.split(/[.=]/)[0];
  const names = new Set([own as string, ...(f.inheritedBy ?? [])]);
  if (f.rule === "TYPE_RENAMED" && typeof f.before === "string") names.add(f.before);
  return [...names];
}
