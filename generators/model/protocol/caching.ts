// Piece `caching`: the requests whose results may be cached, the fields that say for how long and
// for whom, and the notifications that make them stale.
import { ModelError } from "../errors.js";
import type { Caching, Shape, TypeNode } from "../model.js";
import type { ProtocolSource } from "./source.js";

/**
 * Cacheable results: the requests whose result type (or its complete member) has both the ttl
 * and the scope field, and the notifications that make them stale. Absent where no result has them.
 */
export function caching(source: ProtocolSource): Caching | undefined {
  const table = source.table.caching;
  const has = (shape: Shape | undefined, name: string) => shape?.properties.some((p) => p.name === name) ?? false;
  // A result that may instead ask for input is a union: its complete member carries the fields.
  const results = (node: TypeNode | undefined) =>
    (node?.kind === "union" ? node.members : [node]).map((n) => source.shapeOf(n));
  const cacheable = source.methods.filter(
    (m) =>
      m.kind === "request" &&
      m.direction === "clientToServer" &&
      results(m.result).some((shape) => has(shape, table.ttl) && has(shape, table.scope)),
  );
  if (cacheable.length === 0) return undefined;
  const names = cacheable.map((m) => m.method);
  const invalidations = Object.entries(table.invalidatedBy).map(([notification, { methods: stale, match }]) => {
    const sent = source.serverNotification(notification);
    if (!sent)
      throw new ModelError(`spec/method-inferences.json: caching names ${notification}, which servers do not send`);
    for (const method of stale) {
      if (!names.includes(method))
        throw new ModelError(
          `spec/method-inferences.json: ${notification} invalidates ${method}, whose result is not cacheable`,
        );
      if (match !== undefined && !has(source.shapeOf(source.request(method)?.params?.type), match))
        throw new ModelError(`spec/method-inferences.json: ${method} params have no field ${match}`);
    }
    if (match !== undefined && !has(source.shapeOf(sent.params?.type), match))
      throw new ModelError(`spec/method-inferences.json: ${notification} params have no field ${match}`);
    return match === undefined ? { notification, methods: stale } : { notification, methods: stale, match };
  });
  const absent = { ttl: table.absent.ttl, scope: table.absent.scope };
  return { ttl: table.ttl, scope: table.scope, shared: table.shared, absent, methods: names, invalidations };
}
