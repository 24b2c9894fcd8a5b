// Piece `missingCapability`: the error for a request needing capabilities the client did not
// declare, and the data it carries.
import type { Protocol } from "../model.js";
import type { ProtocolSource } from "./source.js";

/** The error for capabilities a request needs and the client did not declare, where the revision has its constant. */
export function missingCapability(source: ProtocolSource): Protocol["missingCapability"] {
  const table = source.table.missingCapability;
  const error = source.numericConstant(table.error);
  if (!error) return undefined;
  return { ...error, data: table.data };
}
