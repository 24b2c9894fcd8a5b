// Piece `resultDefaults`: the values of the fields every result carries, where the revision's
// result type has them.
import type { Protocol } from "../model.js";
import type { ProtocolSource } from "./source.js";

/** The defaults of the result fields the revision has. */
export function resultDefaults(source: ProtocolSource): Protocol["resultDefaults"] {
  const table = source.table.resultDefaults;
  const result = source.byName.get(table.type)?.resolved;
  const defaults = Object.entries(table.fields).filter(([field]) => result?.properties.some((p) => p.name === field));
  if (defaults.length === 0) return undefined;
  return { type: table.type, fields: defaults.map(([field, value]) => ({ field, value })) };
}
