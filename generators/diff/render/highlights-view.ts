// The highlights as the templates show them: per theme a title, who must act, and one line per
// rule naming its items (linked to them), with the change they share where they all share one.
import type { DiffReport, Finding, Item, Theme } from "../rules/findings.js";
import { findingsOf } from "../rules/items.js";
import type { RuleId } from "../rules/rules.js";
import type { Markup } from "./markup.js";
import { changeText, ruleHeadline, whoMustAct } from "./phrases.js";

/** Themes whose lines say what changed; the others' names say it (removed, deprecated, new). */
const SAYS_WHAT = new Set<Theme>(["handshake", "delivery", "shared", "widened"]);

/** A line states the values its items changed to only when there are this few. */
const MAX_FACTS = 3;

const THEME_WORDS: Record<Theme, { title: string; lead: string }> = {
  handshake: {
    title: "Connection setup",
    lead: "how a connection starts, and what every request and result carries about it",
  },
  delivery: {
    title: "How messages travel",
    lead: "requests delivered differently, results that may ask for input, the JSON-RPC envelope",
  },
  removed: { title: "Removed", lead: "methods, notifications, capabilities and error codes that are gone" },
  deprecated: { title: "Deprecated", lead: "still there, to be removed: stop relying on them" },
  added: { title: "New", lead: "methods, notifications, capabilities and error codes to adopt" },
  shared: {
    title: "Widely carried types",
    lead: "breaking changes to data that many messages carry",
  },
  widened: {
    title: "New values to handle",
    lead: "unions, types and fields that admit values code built on the old revision does not expect",
  },
};

/** Names past this many per line are counted, not listed (each is in the report below). */
const MAX_NAMES = 8;

export interface HighlightView {
  theme: Theme;
  title: string;
  lead: string;
  /** `clients and servers must act`, or that nothing breaks. */
  who: string;
  breaking: boolean;
  lines: {
    label: string;
    names: { name: string; href: string }[];
    /** Items not named. */
    more: string;
    /** What its changed items changed to, when that is short. */
    values: string;
  }[];
}

export function highlightsView(report: DiffReport, markup: Markup): HighlightView[] {
  const byId = new Map(report.items.map((i) => [i.id, i]));
  return report.highlights.map((h) => {
    const items = h.items.map((id) => byId.get(id) as Item);
    const rules = [...new Set(items.map((i) => i.rule))];
    const sides = (["client", "server"] as const).filter((s) => items.some((i) => i.breaking && i.affects.includes(s)));
    const words = THEME_WORDS[h.theme];
    return {
      theme: h.theme,
      title: markup.text(words.title),
      lead: markup.text(words.lead),
      who: markup.text(sides.length > 0 ? `${whoMustAct(sides)} must act` : "nothing breaks"),
      breaking: sides.length > 0,
      lines: rules.map((rule) => lineOf(rule, items, report.changes, markup, SAYS_WHAT.has(h.theme))),
    };
  });
}

function lineOf(
  rule: RuleId,
  items: Item[],
  changes: Finding[],
  markup: Markup,
  saysWhat: boolean,
): HighlightView["lines"][number] {
  const mine = items.filter((i) => i.rule === rule);
  const facts = new Set(
    mine
      .filter((i) => i.change === "changed")
      .flatMap((i) => findingsOf(i, changes))
      .map((f) => changeText(f, markup)),
  );
  const more = mine.length - MAX_NAMES;
  return {
    label: markup.text(ruleHeadline(rule)),
    names: mine.slice(0, MAX_NAMES).map((i) => ({ name: markup.code(i.name), href: `#${i.id}` })),
    more: more > 0 ? markup.text(`and ${more} more`) : "",
    values: saysWhat && facts.size > 0 && facts.size <= MAX_FACTS ? [...facts].join(", ") : "",
  };
}
