// Piece `subscriptions`: the long-lived request whose stream carries change notifications, its
// filter's flags and lists, the notification each opts in to, and how the stream ends.
import { ModelError } from "../errors.js";
import type { Subscriptions } from "../model.js";
import type { ProtocolSource } from "./source.js";

/** Change notifications on a long-lived request's stream, where clients send that request. */
export function subscriptions(source: ProtocolSource): Subscriptions | undefined {
  const table = source.table.subscriptions;
  const listen = source.request(table.request);
  if (!listen) return undefined;
  const notification = (method: string) => {
    const found = source.serverNotification(method);
    if (!found)
      throw new ModelError(`spec/method-inferences.json: subscriptions name ${method}, which servers do not send`);
    return found;
  };
  notification(table.acknowledged);
  const params = listen.params?.type.kind === "ref" ? source.byName.get(listen.params.type.name)?.resolved : undefined;
  const filterType = params?.properties.find((p) => p.name === table.filter)?.type;
  const filter = filterType?.kind === "ref" ? source.byName.get(filterType.name)?.resolved : undefined;
  if (!filter)
    throw new ModelError(`spec/method-inferences.json: ${table.request} params have no ${table.filter} object`);
  const has = (field: string) => {
    if (!filter.properties.some((p) => p.name === field))
      throw new ModelError(`spec/method-inferences.json: the ${table.request} filter has no field ${field}`);
  };
  const flags = Object.entries(table.flags).map(([field, method]) => {
    has(field);
    notification(method);
    return { field, notification: method };
  });
  const lists = Object.entries(table.lists).map(([field, { notification: method, field: match }]) => {
    has(field);
    const entry = notification(method);
    const shape = entry.params?.type.kind === "ref" ? source.byName.get(entry.params.type.name)?.resolved : undefined;
    if (!shape?.properties.some((p) => p.name === match))
      throw new ModelError(`spec/method-inferences.json: ${method} params have no field ${match}`);
    return { field, notification: method, match };
  });
  return {
    request: table.request,
    filter: table.filter,
    acknowledged: table.acknowledged,
    idMeta: table.idMeta,
    flags,
    lists,
    // Where the server may send the cancellation notification at all.
    ...(source.serverNotification(table.endedBy) ? { endedBy: table.endedBy } : {}),
  };
}
