// Piece `paramGates`: the params fields that need a capability of the receiver beyond the method's
// own, from rule-facts.ts's gates; absent where the revision has none.
import type { ParamCapabilityEntry } from "../inference-table.js";
import type { Protocol } from "../model.js";
import { buildParamGates, type SchemaFacts } from "../rule-facts.js";

/** The params gates the revision has; absent where it has none. */
export function paramGates(schema: SchemaFacts, table: Record<string, ParamCapabilityEntry[]>): Protocol["paramGates"] {
  const gates = buildParamGates(schema, table);
  return gates.length > 0 ? gates : undefined;
}
