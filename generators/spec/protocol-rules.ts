// The ledger of protocol rules (spec/protocol-rules.json, hand-reviewed) and its rendering into
// docs/protocol-rules.md: per spec page, each rule's id, revisions, who obeys it, a paraphrase,
// where mcp-gen enforces it and the test that holds it, or why no code can check it. Pure apart
// from reading the ledger.
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { InputError } from "../errors.js";
import { paths } from "../paths.js";
import { specUrl, type RevisionTable } from "./revisions.js";

export const PROTOCOL_RULES_FILE = "spec/protocol-rules.json";
export const PROTOCOL_RULES_DOC = "docs/protocol-rules.md";

export type Party = "client" | "server" | "host";

export interface LedgerPage {
  title: string;
  /** revision → the page's path under the revision's specification URL. */
  paths: Record<string, string>;
}

export interface LedgerRule {
  id: string;
  pages: string[];
  revisions: { from: string; to?: string };
  obeys: Party[];
  rule: string;
  facts?: string;
  enforcement?: { file: string; by: string } | null;
  test?: { file: string; name: string };
  notCheckable?: string;
  note?: string;
}

export interface Ledger {
  pages: Record<string, LedgerPage>;
  rules: LedgerRule[];
}

export type RuleStatus = "enforced" | "not enforced yet" | "not checkable";

export function readLedger(root = paths.root): Ledger {
  const file = join(root, PROTOCOL_RULES_FILE);
  try {
    return JSON.parse(readFileSync(file, "utf8")) as Ledger;
  } catch (error) {
    throw new InputError(`${PROTOCOL_RULES_FILE}: not readable JSON (${(error as Error).message})`);
  }
}

export function statusOf(rule: LedgerRule): RuleStatus {
  if (rule.notCheckable !== undefined) return "not checkable";
  return rule.enforcement ? "enforced" : "not enforced yet";
}

/** The revisions a rule applies to, in the table's order. */
export function revisionsOf(rule: LedgerRule, table: RevisionTable): string[] {
  const order = table.revisions.map((r) => r.revision);
  const from = order.indexOf(rule.revisions.from);
  const to = rule.revisions.to === undefined ? order.length - 1 : order.indexOf(rule.revisions.to);
  return from < 0 || to < 0 ? [] : order.slice(from, to + 1);
}

const STATUSES: RuleStatus[] = ["enforced", "not enforced yet", "not checkable"];

/** Markdown: counts per page and revision, then every rule under its first page. */
export function renderProtocolRules(ledger: Ledger, table: RevisionTable): string {
  const featured = ["2025-11-25", "2026-07-28"].filter((r) => table.revisions.some((p) => p.revision === r));
  const out: string[] = [
    "<!-- Generated from spec/protocol-rules.json by `npm run generate`; edit that file, not this one. -->",
    "",
    "# Protocol rules",
    "",
    "The normative rules of the specification's pages that go beyond the schema, as mcp-gen keeps them:",
    "each rule's stable id (named in a `RuleViolation`'s message and `data.rule`, and accepted by",
    "`relaxRules`), the revisions it applies to, who must obey it, a paraphrase (the pages are linked;",
    "their text is not copied), where mcp-gen enforces it and the test that holds it, or why no code",
    "can check it. Rules that depend on the schema (which capability gates which method, field or",
    "value) name the model facts they stand on instead of listing them per revision.",
    "",
    "Messages received that break a rule get the error the page prescribes (-32602 where it names",
    "none; a notification is dropped and reported to `onError`); this side's own calls that would",
    "break one fail before anything is sent, naming the rule.",
    "",
    `| page | ${featured.map((r) => `${r}: rules · enforced · not yet · not checkable`).join(" | ")} |`,
    `|---|${featured.map(() => "---|").join("")}`,
  ];
  const byPage = new Map<string, LedgerRule[]>();
  for (const rule of ledger.rules) {
    const page = rule.pages[0] ?? "";
    byPage.set(page, [...(byPage.get(page) ?? []), rule]);
  }
  const count = (rules: LedgerRule[], revision: string) => {
    const applying = rules.filter((r) => revisionsOf(r, table).includes(revision));
    const per = STATUSES.map((s) => applying.filter((r) => statusOf(r) === s).length);
    return applying.length === 0 ? "–" : `${applying.length} · ${per.join(" · ")}`;
  };
  for (const [key, page] of Object.entries(ledger.pages)) {
    const rules = byPage.get(key) ?? [];
    if (rules.length > 0) out.push(`| [${page.title}](#${anchor(page.title)}) | ${featured.map((r) => count(rules, r)).join(" | ")} |`);
  }
  out.push(`| **all** | ${featured.map((r) => `**${count(ledger.rules, r)}**`).join(" | ")} |`, "");
  for (const [key, page] of Object.entries(ledger.pages)) {
    const rules = byPage.get(key);
    if (!rules) continue;
    out.push(`## ${page.title}`, "");
    for (const rule of rules) out.push(...renderRule(rule, ledger, table), "");
  }
  return out.join("\n").replace(/\n+$/, "\n");
}

function renderRule(rule: LedgerRule, ledger: Ledger, table: RevisionTable): string[] {
  const revisions = revisionsOf(rule, table);
  const range = rule.revisions.to === undefined ? `${rule.revisions.from} and later` : rule.revisions.from === rule.revisions.to ? rule.revisions.from : `${rule.revisions.from} to ${rule.revisions.to}`;
  const links = rule.pages.flatMap((key) => {
    const page = ledger.pages[key];
    if (!page) return [];
    const at = revisions.filter((r) => page.paths[r] !== undefined);
    return at.length === 0 ? [] : [`${page.title}: ${at.map((r) => `[${r}](${specUrl(table, r)}/${page.paths[r]})`).join(", ")}`];
  });
  const lines = [
    `### \`${rule.id}\``,
    "",
    rule.rule,
    "",
    `- revisions: ${range}; obeyed by: ${rule.obeys.join(", ")}`,
    `- pages: ${links.join("; ")}`,
  ];
  if (rule.facts) lines.push(`- model facts: ${rule.facts}`);
  const status = statusOf(rule);
  if (status === "not checkable") lines.push(`- not checkable: ${rule.notCheckable ?? ""}`);
  else if (rule.enforcement) lines.push(`- enforced in \`${rule.enforcement.file}\`: ${rule.enforcement.by}`);
  else lines.push("- **not enforced yet**");
  if (rule.test) lines.push(`- test: \`${rule.test.file}\`, "${rule.test.name}"`);
  if (rule.note) lines.push(`- note: ${rule.note}`);
  return lines;
}

function anchor(title: string): string {
  return title.toLowerCase().replace(/[^a-z0-9 -]/g, "").replace(/ /g, "-");
}
