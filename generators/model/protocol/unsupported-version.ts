// Piece `unsupportedVersion`: the error for a protocol version the server does not speak, and
// the data it carries.
import type { Protocol } from "../model.js";
import type { ProtocolSource } from "./source.js";

/** The error for an unsupported protocol version, where the revision has its constant. */
export function unsupportedVersion(source: ProtocolSource): Protocol["unsupportedVersion"] {
  const table = source.table.unsupportedVersion;
  const error = source.numericConstant(table.error);
  if (!error) return undefined;
  return { ...error, data: Object.entries(table.data).map(([field, state]) => ({ field, state, required: true })) };
}
