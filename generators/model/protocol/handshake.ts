// Piece `handshake`: the request and notification that open a session, which requests may precede
// them, and which of their params and result fields carry the table's states.
import type { Protocol } from "../model.js";
import type { ProtocolSource } from "./source.js";

/** The handshake, where clients send both its request and its notification. */
export function handshake(source: ProtocolSource): Protocol["handshake"] {
  const hs = source.table.handshake;
  const request = source.request(hs.request);
  if (!request || !source.directions(hs.notification).includes("clientToServer")) return undefined;
  return {
    request: hs.request,
    notification: hs.notification,
    allowedBefore: hs.allowedBefore.filter((m) => source.request(m)),
    params: source.bind(source.shapeOf(request.params?.type), hs.params, `${hs.request} params`),
    result: source.bind(source.shapeOf(request.result), hs.result, `${hs.request} result`),
  };
}
