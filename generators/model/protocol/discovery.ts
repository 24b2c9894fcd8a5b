// Piece `discovery`: the stateless request a client learns the server from, its result fields
// and the table's defaults.
import type { Protocol } from "../model.js";
import type { ProtocolSource } from "./source.js";

/** Stateless discovery, where clients send its request. */
export function discovery(source: ProtocolSource): Protocol["discovery"] {
  const table = source.table.discovery;
  const request = source.request(table.request);
  if (!request) return undefined;
  return {
    request: table.request,
    result: source.bind(source.shapeOf(request.result), table.result, `${table.request} result`),
    defaults: table.defaults,
  };
}
