// Piece `requestLogging`: log notifications gated by the level a request carries in `_meta`, and
// the levels the revision's log notification admits.
import { ModelError } from "../errors.js";
import type { Protocol } from "../model.js";
import type { ProtocolSource } from "./source.js";

/** Log notifications gated by the level a request carries in `_meta`, where requests carry one. */
export function requestLogging(source: ProtocolSource, protocol: Protocol): Protocol["requestLogging"] {
  const table = source.table.requestLogging;
  if (!protocol.requestMeta?.fields.some((f) => f.state === table.state)) return undefined;
  const entry = source.methods.find((m) => m.method === table.notification && m.direction === "serverToClient");
  const level = source.shapeOf(entry?.params?.type)?.properties.find((p) => p.name === table.field)?.type;
  const alias = level?.kind === "ref" ? source.byName.get(level.name) : undefined;
  const members = alias?.kind === "alias" && alias.type.kind === "union" ? alias.type.members : [];
  const levels = members.flatMap((m) => (m.kind === "literal" && typeof m.value === "string" ? [m.value] : []));
  if (levels.length === 0 || levels.length !== members.length)
    throw new ModelError(
      `spec/method-inferences.json: ${table.notification} ${table.field} is not a union of string literals`,
    );
  return { notification: table.notification, field: table.field, state: table.state, levels };
}
