// Whose words a report speaks: the protocol's (methods, fields, senders and receivers) for
// upgrade reports, or another reader's (tools and arguments, for `mcp-gen tools --check`).
import type { Finding, Item } from "../rules/findings.js";
import { RULES } from "../rules/rules.js";
import type { Markup } from "./markup.js";

export interface Vocabulary {
  /** The item's subject as its readers name it, marked up. */
  subject(item: Item, markup: Markup): string;
  /** What the item's rule means for those readers, in one line of plain text. */
  summary(item: Item): string;
  /**
   * The facts worth showing of one finding, marked up, where these readers need fewer than the
   * protocol's (no directions, gates or carrying messages); all of them if not given.
   */
  facts?(finding: Finding, markup: Markup): string[];
}

export const PROTOCOL_WORDS: Vocabulary = {
  subject: (item, markup) => markup.code(item.name),
  summary: (item) => RULES[item.rule].summary,
};
