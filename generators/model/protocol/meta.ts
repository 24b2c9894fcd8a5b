// Pieces `requestMeta` and `resultMeta`: the `_meta` keys of requests and of results, one rule
// for both.
import type { Protocol } from "../model.js";
import type { ProtocolSource } from "./source.js";

/** The `_meta` keys of requests or of results, where the revision declares them. */
export function meta(source: ProtocolSource, key: "requestMeta" | "resultMeta"): Protocol[typeof key] {
  const entry = source.table[key];
  const decl = source.byName.get(entry.type);
  if (!decl) return undefined;
  // Only the keys this revision defines: earlier revisions had fewer.
  return { type: entry.type, fields: source.bind(decl.resolved, entry.fields, entry.type, false) };
}
