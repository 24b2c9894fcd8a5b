// Piece `pagination`: the cursor fields, and the requests whose params take one and whose results
// carry the next.
import type { Protocol } from "../model.js";
import type { ProtocolSource } from "./source.js";

/** The requests whose params take a cursor and whose results carry the next one. */
export function pagination(source: ProtocolSource): Protocol["pagination"] {
  const { cursor, next } = source.table.pagination;
  const paginated = source.methods.filter(
    (m) =>
      m.kind === "request" &&
      source.shapeOf(m.params?.type)?.properties.some((p) => p.name === cursor) &&
      source.shapeOf(m.result)?.properties.some((p) => p.name === next),
  );
  if (paginated.length === 0) return undefined;
  return { cursor, next, methods: [...new Set(paginated.map((m) => m.method))] };
}
