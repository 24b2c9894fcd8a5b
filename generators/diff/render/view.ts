// The report as the Markdown and HTML templates lay it out: an upgrade guide. Highlights first,
// then the counts, then breaking changes grouped by who must act, warnings, additions, and the
// rest. One view builder for both formats; each format passes its own markup (escaping, code
// spans). Reports list items (findings grouped per union member and per direction), never a
// finding twice.
import {
  FINDING_KINDS,
  type Change,
  type DiffReport,
  type Finding,
  type FindingKind,
  type Item,
} from "../rules/findings.js";
import { findingsOf } from "../rules/items.js";
import type { RevisionLinks } from "../rules/links.js";
import { highlightsView, type HighlightView } from "./highlights-view.js";
import type { Markup } from "./markup.js";
import { KIND_TITLES, changeText, whoMustAct } from "./phrases.js";
import { PROTOCOL_WORDS, type Vocabulary } from "./vocabulary.js";

interface Group {
  id: string;
  title: string;
  lead: string;
  test: (item: Item) => boolean;
}

/** Earlier groups take precedence: an item is listed once. */
const GROUPS: Group[] = [
  {
    id: "breaking-both",
    title: "Breaking: clients and servers must act",
    lead: "Code built on the old revision breaks on both sides.",
    test: (i) => i.breaking && i.affects.length === 2,
  },
  {
    id: "breaking-client",
    title: "Breaking: clients must act",
    lead: "Clients built on the old revision break; servers are unaffected.",
    test: (i) => i.breaking && i.affects.includes("client"),
  },
  {
    id: "breaking-server",
    title: "Breaking: servers must act",
    lead: "Servers built on the old revision break; clients are unaffected.",
    test: (i) => i.breaking && i.affects.includes("server"),
  },
  {
    id: "warnings",
    title: "Warnings",
    lead: "Deprecations, renames and removals: messages still interoperate, code may need changes.",
    test: (i) => i.severity === "warning",
  },
  {
    id: "additions",
    title: "Additions",
    lead: "New methods, capabilities, types and fields; nothing built on the old revision breaks.",
    test: (i) => i.change === "added" && i.rule !== "TYPE_EXTRACTED",
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

export interface ItemView {
  id: string;
  name: string;
  kind: FindingKind;
  rule: string;
  severity: string;
  affects: string;
  summary: string;
  /** Before → after (every member), the details, the inheriting types and the messages. */
  facts: string[];
  link: string;
  breaking: boolean;
  /** Who must act, in words: `clients`, `servers`, `clients and servers`. */
  who: string;
  /** Lower-case name and touched entities, for the HTML filter. */
  search: string;
}

/** Counts of items: each of them is one line of the report. */
export interface Totals {
  items: number;
  /** Findings behind the items (more where items list several members or directions). */
  findings: number;
  breaking: number;
  /** Breaking items by who must act; the three add up to `breaking`. */
  both: number;
  clientOnly: number;
  serverOnly: number;
  /** Breaking items that affect each side (`both` counts for each). */
  client: number;
  server: number;
  warning: number;
  info: number;
}

export interface ReportView {
  from: string;
  to: string;
  fromUrl: string;
  toUrl: string;
  changelogUrl: string;
  highlights: HighlightView[];
  /** Breaking items no highlight names, as a sentence (empty if none). */
  otherBreakingText: string;
  counts: { kind: string; added: number; removed: number; changed: number }[];
  totals: Totals;
  /**
   * How the counts add up, in words: after "N breaking", the breaking items by who must act; the
   * total; the findings behind the items.
   */
  explained: { breaking: string; total: string; grouped: string };
  groups: {
    id: string;
    title: string;
    lead: string;
    count: number;
    kinds: { title: string; items: ItemView[] }[];
  }[];
  /** The kinds present, for the HTML kind filter. */
  kindOptions: { kind: FindingKind; title: string }[];
  empty: boolean;
}

export function reportView(
  report: DiffReport,
  links: { from: RevisionLinks; to: RevisionLinks },
  markup: Markup,
  words: Vocabulary = PROTOCOL_WORDS,
): ReportView {
  const remaining = [...report.items];
  const groups = GROUPS.map((group) => {
    const members = remaining.filter(group.test);
    for (const item of members) remaining.splice(remaining.indexOf(item), 1);
    const kinds = FINDING_KINDS.map((kind) => ({
      title: KIND_TITLES[kind],
      items: members.filter((i) => i.kind === kind).map((i) => itemView(i, report.changes, markup, words)),
    })).filter((k) => k.items.length > 0);
    return { id: group.id, title: group.title, lead: markup.text(group.lead), count: members.length, kinds };
  }).filter((g) => g.count > 0);
  const highlighted = new Set(report.highlights.flatMap((h) => h.items));
  const totals = totalsOf(report);
  return {
    from: report.from,
    to: report.to,
    fromUrl: markup.url(links.from.specUrl),
    toUrl: markup.url(links.to.specUrl),
    changelogUrl: report.changelog ? markup.url(report.changelog) : "",
    highlights: highlightsView(report, markup),
    otherBreakingText: markup.text(
      otherBreaking(report.items.filter((i) => i.breaking && !highlighted.has(i.id)).length, highlighted.size > 0),
    ),
    counts: FINDING_KINDS.map((kind) => {
      const of = (change: Change) => report.items.filter((i) => i.kind === kind && i.change === change).length;
      return { kind: KIND_TITLES[kind], added: of("added"), removed: of("removed"), changed: of("changed") };
    }).filter((row) => row.added + row.removed + row.changed > 0),
    totals,
    explained: {
      breaking: markup.text(breakingText(totals)),
      total: markup.text(
        `${totals.warning} ${plural(totals.warning, "warning")}, ${totals.info} informational: ${totals.items} ${plural(totals.items, "change")} in all (${totals.breaking} + ${totals.warning} + ${totals.info}).`,
      ),
      grouped: markup.text(
        totals.findings > totals.items
          ? `They come from ${totals.findings} findings: the findings of one rule about several members of a union, or about both directions of a method, are listed together as one change (the JSON format keeps each finding).`
          : "",
      ),
    },
    groups,
    kindOptions: FINDING_KINDS.filter((k) => report.items.some((i) => i.kind === k)).map((kind) => ({
      kind,
      title: KIND_TITLES[kind],
    })),
    empty: report.items.length === 0,
  };
}

export function totalsOf(report: DiffReport): Totals {
  const breaking = report.items.filter((i) => i.breaking);
  const affecting = (side: "client" | "server") => breaking.filter((i) => i.affects.includes(side)).length;
  const both = breaking.filter((i) => i.affects.length === 2).length;
  return {
    items: report.items.length,
    findings: report.changes.length,
    breaking: breaking.length,
    both,
    clientOnly: affecting("client") - both,
    serverOnly: affecting("server") - both,
    client: affecting("client"),
    server: affecting("server"),
    warning: report.items.filter((i) => i.severity === "warning").length,
    info: report.items.filter((i) => i.severity === "info").length,
  };
}

function itemView(item: Item, changes: Finding[], markup: Markup, words: Vocabulary): ItemView {
  const findings = findingsOf(item, changes);
  return {
    id: item.id,
    name: words.subject(item, markup),
    kind: item.kind,
    rule: item.rule,
    severity: item.severity,
    affects: item.affects.join(" "),
    summary: markup.text(words.summary(item)),
    facts: words.facts
      ? unique(findings.flatMap((f) => (words.facts as NonNullable<Vocabulary["facts"]>)(f, markup)))
      : [
          unique(findings.map((f) => changeText(f, markup))).join(", "),
          detailsOf(findings, markup),
          listedOnce(findings, "inheritedBy", "inherited by", markup),
          listedOnce(findings, "carriedBy", "in", markup),
        ].filter((fact) => fact !== ""),
    link: markup.url((findings[0] as Finding).link),
    breaking: item.breaking,
    who: markup.text(whoMustAct(item.affects)),
    search: markup.text(
      unique([item.name, ...findings.flatMap(touchedEntities)])
        .join(" ")
        .toLowerCase(),
    ),
  };
}

/** What follows "N breaking": the breaking items by who must act, which add up to N. */
function breakingText(t: Totals): string {
  if (t.breaking === 0) return ".";
  const affect = (n: number, side: string) => `${n} ${n === 1 ? "affects" : "affect"} ${side}`;
  return (
    `: ${t.both} for clients and servers, ${t.clientOnly} for clients only, ${t.serverOnly} for servers only ` +
    `(so ${affect(t.client, "clients")}, ${affect(t.server, "servers")}).`
  );
}

function otherBreaking(n: number, more: boolean): string {
  if (n === 0) return "";
  const what = `${n}${more ? " more" : ""} breaking ${plural(n, "change")}`;
  return `${what} ${n === 1 ? "is" : "are"} listed below.`;
}

function plural(n: number, word: string): string {
  return n === 1 ? word : `${word}s`;
}

/**
 * Each finding's detail once; where an item's findings break different sides (a method's two
 * directions), each detail says whose.
 */
function detailsOf(findings: Finding[], markup: Markup): string {
  const sides = new Set(findings.map((f) => f.affects.join(" ")));
  const details = findings.map((f) =>
    sides.size > 1 && f.affects.length > 0 ? `${f.detail} (${whoMustAct(f.affects)} must act)` : f.detail,
  );
  return markup.text(unique(details.filter((d) => d !== "")).join("; "));
}

function listedOnce(findings: Finding[], key: "inheritedBy" | "carriedBy", label: string, markup: Markup): string {
  const all = unique(findings.flatMap((f) => f[key] ?? [])).sort();
  return all.length > 0 ? `${markup.text(label)} ${listed(all, markup)}` : "";
}

function unique<T>(values: T[]): T[] {
  return [...new Set(values)];
}

function listed(items: string[], markup: Markup): string {
  const shown = items.slice(0, MAX_LISTED).map((i) => markup.code(i));
  const more = items.length - shown.length;
  return more > 0 ? `${shown.join(", ")} ${markup.text(`and ${more} more`)}` : shown.join(", ");
}

/** Finding → the id of the item that lists it, for links into a report. */
export function itemIdsByFinding(report: DiffReport): Map<Finding, string> {
  const ids = new Map<Finding, string>();
  for (const item of report.items) for (const f of findingsOf(item, report.changes)) ids.set(f, item.id);
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
