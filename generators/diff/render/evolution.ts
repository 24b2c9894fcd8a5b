// The evolution view (generated/diffs/index.html): every method, notification, type and
// constant against every revision, each cell saying present, absent, added, changed (breaking
// or not), removed or deprecated, and linking into the pairwise report that explains it.
import type { Model } from "../../model/model.js";
import type { DiffReport, Finding } from "../rules/findings.js";
import type { RevisionLinks } from "../rules/links.js";
import { RULES } from "../rules/rules.js";
import { escapeHtml } from "./markup.js";
import { itemIdsByFinding, touchedEntities } from "./view.js";

export interface RevisionInput {
  revision: string;
  model: Model;
  links: RevisionLinks;
}

type Kind = "method" | "notification" | "type" | "constant";
type State = "absent" | "present" | "added" | "respelled" | "changed" | "breaking" | "removed";

const SYMBOLS: Record<State, string> = {
  absent: "",
  present: "●",
  added: "+",
  respelled: "◇",
  changed: "◆",
  breaking: "◆",
  removed: "✕",
};

/** What each mark means, in words: the legend and each cell's tooltip say the same. */
const WORDS: Record<State, string> = {
  absent: "not in this revision",
  present: "there, unchanged",
  added: "new in this revision",
  respelled: "the schema words it differently; messages and code are the same",
  changed: "changed; code built on the revision before still works",
  breaking: "changed; code built on the revision before breaks",
  removed: "removed",
};

/** The legend, in the order a reader meets the marks. */
const LEGEND: State[] = ["present", "added", "respelled", "changed", "breaking", "removed"];

/** A method's directions: → client to server, ← server to client, ⇄ both. */
const ARROWS: Record<string, string> = { clientToServer: "→", serverToClient: "←" };

interface Cell {
  state: string;
  symbol: string;
  arrow: string;
  deprecated: boolean;
  href: string;
  title: string;
}

interface Row {
  name: string;
  search: string;
  breaking: boolean;
  changed: boolean;
  cells: Cell[];
}

interface Section {
  kind: Kind;
  title: string;
  rows: Row[];
}

export interface EvolutionView {
  /** Table columns: the name, then one per revision. */
  columns: number;
  legend: { state: State; symbol: string; words: string }[];
  revisions: { revision: string; specUrl: string; report: string; reportTitle: string }[];
  sections: Section[];
  totals: { rows: number; changed: number; breaking: number };
}

/** What an entity is in one revision. */
interface Presence {
  deprecated: boolean;
  arrow: string;
  /** Declarations whose findings also count for it: a method's message, params and result types. */
  related: string[];
  category?: string;
}

interface Linked {
  finding: Finding;
  href: string;
}

const SECTIONS: { kind: Kind; title: string }[] = [
  { kind: "method", title: "Requests" },
  { kind: "notification", title: "Notifications" },
  { kind: "type", title: "Types" },
  { kind: "constant", title: "Constants" },
];

export function evolutionView(
  revisions: RevisionInput[],
  reports: DiffReport[],
  reportFile: (report: DiffReport) => string,
): EvolutionView {
  const presence = revisions.map((r) => entitiesOf(r.model));
  const linked = reports.map((report) => findingsByEntity(report, reportFile(report)));
  const sections = SECTIONS.flatMap(({ kind, title }): Section[] => {
    const keys = [...new Set(presence.flatMap((p) => [...p.keys()]))].filter((k) => k.startsWith(`${kind}:`));
    const rows = keys.sort(byName).map((key) => ({ key, row: rowOf(key, presence, linked, revisions) }));
    if (kind !== "type") return [{ kind, title, rows: rows.map((r) => r.row) }];
    // Types grouped by the spec's own `@category`, as the newest revision that states one has it.
    const groups = new Map<string, Row[]>();
    for (const { key, row } of rows) {
      const category =
        [...presence]
          .reverse()
          .find((p) => p.get(key)?.category)
          ?.get(key)?.category ?? "Other";
      groups.set(category, [...(groups.get(category) ?? []), row]);
    }
    return [...groups.entries()]
      .sort(([a], [b]) => byName(a, b))
      .map(([category, list]) => ({ kind, title: `${title}: ${escapeHtml(category)}`, rows: list }));
  });
  const rows = sections.flatMap((s) => s.rows);
  return {
    columns: revisions.length + 1,
    legend: LEGEND.map((state) => ({ state, symbol: SYMBOLS[state], words: WORDS[state] })),
    revisions: revisions.map((r, i) => {
      const report = reports[i - 1];
      return {
        revision: escapeHtml(r.revision),
        specUrl: escapeHtml(r.links.specUrl),
        report: report ? escapeHtml(reportFile(report)) : "",
        reportTitle: report ? escapeHtml(`${report.from} → ${report.to}`) : "",
      };
    }),
    sections,
    totals: {
      rows: rows.length,
      changed: rows.filter((r) => r.changed).length,
      breaking: rows.filter((r) => r.breaking).length,
    },
  };
}

function byName(a: string, b: string): number {
  return a.toLowerCase() < b.toLowerCase() ? -1 : a.toLowerCase() > b.toLowerCase() ? 1 : 0;
}

function entitiesOf(model: Model): Map<string, Presence> {
  const entities = new Map<string, Presence>();
  const decls = new Map(model.declarations.map((d) => [d.name, d]));
  for (const m of model.methods) {
    const key = `${m.kind === "request" ? "method" : "notification"}:${m.method}`;
    const seen = entities.get(key);
    const refs = [m.params?.type, m.result].flatMap((t) => (t?.kind === "ref" ? [t.name] : []));
    entities.set(key, {
      deprecated: !!decls.get(m.type)?.deprecated,
      arrow: seen && seen.arrow !== ARROWS[m.direction] ? "⇄" : (ARROWS[m.direction] as string),
      related: [...new Set([...(seen?.related ?? []), m.type, ...refs])],
    });
  }
  for (const d of model.declarations) {
    const category = d.category?.replace(/`/g, "");
    entities.set(`type:${d.name}`, {
      deprecated: !!d.deprecated,
      arrow: "",
      related: [],
      ...(category ? { category } : {}),
    });
  }
  for (const c of model.constants)
    entities.set(`constant:${c.name}`, { deprecated: !!c.deprecated, arrow: "", related: [] });
  return entities;
}

/** Entity key → the findings about it in one report, each with its link. */
function findingsByEntity(report: DiffReport, file: string): Map<string, Linked[]> {
  const ids = itemIdsByFinding(report);
  const map = new Map<string, Linked[]>();
  for (const f of report.changes) {
    const own = f.kind === "method" || f.kind === "notification" || f.kind === "constant";
    const keys = own ? [`${f.kind}:${f.name}`] : touchedEntities(f).map((name) => `type:${name}`);
    for (const key of keys) map.set(key, [...(map.get(key) ?? []), { finding: f, href: `${file}#${ids.get(f)}` }]);
  }
  return map;
}

function rowOf(
  key: string,
  presence: Map<string, Presence>[],
  linked: Map<string, Linked[]>[],
  revisions: RevisionInput[],
): Row {
  const cells = revisions.map((r, i) => {
    const now = presence[i]?.get(key);
    const before = i > 0 ? presence[i - 1]?.get(key) : undefined;
    // A method changes with its message, params and result types, where they exist on both sides
    // (a type new in this revision is reported as added, not as a change of the method).
    const related = [...new Set([...(before?.related ?? []), ...(now?.related ?? [])])]
      .map((t) => `type:${t}`)
      .filter((t) => presence[i]?.has(t) && presence[i - 1]?.has(t));
    const findings = i > 0 ? [...new Set([key, ...related].flatMap((k) => linked[i - 1]?.get(k) ?? []))] : [];
    return cellOf(r.revision, stateOf(now, before, findings, i === 0), now, before, findings);
  });
  const name = key.slice(key.indexOf(":") + 1);
  return {
    name: escapeHtml(name),
    search: escapeHtml(name.toLowerCase()),
    breaking: cells.some((c) => c.state.includes("breaking")),
    changed: cells.some((c) => !["present", "absent", "respelled"].includes(c.state)),
    cells,
  };
}

function stateOf(now: Presence | undefined, before: Presence | undefined, findings: Linked[], first: boolean): State {
  if (first || (now && before)) {
    if (!now) return "absent";
    if (findings.length === 0) return "present";
    if (findings.some((f) => f.finding.breaking)) return "breaking";
    return findings.every((f) => RULES[f.finding.rule].respelling) ? "respelled" : "changed";
  }
  if (now) return "added";
  return before ? "removed" : "absent";
}

function cellOf(
  revision: string,
  state: State,
  now: Presence | undefined,
  before: Presence | undefined,
  findings: Linked[],
): Cell {
  const breaking = findings.filter((f) => f.finding.breaking);
  const rules = [...new Set(findings.map((f) => f.finding.rule))];
  const title = [
    `${revision}: ${WORDS[state]}${now?.deprecated ? ", deprecated" : ""}`,
    ...(findings.length > 0 ? [`${findings.length} finding(s), ${breaking.length} breaking: ${rules.join(", ")}`] : []),
  ].join("\n");
  const shown = state !== "absent" && state !== "present";
  return {
    // A removal is only marked breaking when a rule says so (a removed method, not a removed type name).
    state: state === "removed" && breaking.length > 0 ? "removed breaking" : state,
    symbol: SYMBOLS[state],
    arrow: state === "absent" ? "" : ((now ?? before)?.arrow ?? ""),
    deprecated: !!now?.deprecated,
    href: shown && findings.length > 0 ? escapeHtml(((breaking[0] ?? findings[0]) as Linked).href) : "",
    title: escapeHtml(title),
  };
}
