// methods.ts `SESSION`: the revision's facts the runtime's client and server run on
// (runtime/session-facts.ts), from the model's `protocol`. Pure: model in, TypeScript text out;
// the tables it names (`*_INFO`, PROTOCOL_RULES, HTTP_BINDING) are methods.ts's own.
import { hasBatches } from "../model/envelopes.js";
import type { Caching, FieldBinding, Model } from "../model/model.js";
import { valueLiteral } from "./code.js";

export function sessionFactsLiteral(model: Model): string {
  const p = model.protocol;
  const bindings = (fields: FieldBinding[]) => fields.map(({ field, state }) => ({ field, state }));
  const facts = {
    handshake: p.handshake && {
      request: p.handshake.request,
      notification: p.handshake.notification,
      allowedBefore: p.handshake.allowedBefore,
      params: bindings(p.handshake.params),
      result: bindings(p.handshake.result),
    },
    discovery: p.discovery && {
      request: p.discovery.request,
      result: bindings(p.discovery.result),
      defaults: p.discovery.defaults,
    },
    requestMeta: p.requestMeta && bindings(p.requestMeta.fields),
    resultMeta: p.resultMeta && bindings(p.resultMeta.fields),
    resultDefaults: p.resultDefaults && Object.fromEntries(p.resultDefaults.fields.map((f) => [f.field, f.value])),
    unsupportedVersion: p.unsupportedVersion && {
      code: p.unsupportedVersion.code,
      data: bindings(p.unsupportedVersion.data),
    },
    // Only where input requests need client capabilities (MRTR: sampling, elicitation, roots).
    missingCapability:
      p.inputRequired && p.missingCapability && inputNeedsCapabilities(model)
        ? { code: p.missingCapability.code, data: p.missingCapability.data }
        : undefined,
    inputRequired: p.inputRequired && {
      marker: p.inputRequired.marker,
      requests: p.inputRequired.requests,
      responses: p.inputRequired.responses,
      state: p.inputRequired.state,
    },
    requestLogging: p.requestLogging,
    subscriptions: p.subscriptions && {
      ...p.subscriptions,
      flags: p.subscriptions.flags.map((f) => ({ ...f, capability: notificationCapability(model, f.notification) })),
      lists: p.subscriptions.lists.map((l) => ({ ...l, capability: notificationCapability(model, l.notification) })),
    },
    caching: p.caching && cachingFacts(p.caching),
    pagination: p.pagination,
    cancellation: p.cancellation,
    progress: p.progress,
    batches: hasBatches(model.envelopes) || undefined,
    taskFields: p.taskAugmentation?.fields,
  };
  const tables = [
    "revision: REVISION",
    "rules: PROTOCOL_RULES",
    "clientRequests: CLIENT_REQUEST_INFO",
    "serverRequests: SERVER_REQUEST_INFO",
    "clientNotifications: CLIENT_NOTIFICATION_INFO",
    "serverNotifications: SERVER_NOTIFICATION_INFO",
    ...(p.http ? ["http: HTTP_BINDING"] : []),
  ];
  return `{ ${tables.join(", ")}, ${valueLiteral(facts).slice(1, -1).trim()} }`;
}

/** Whether some input request needs a client capability. */
function inputNeedsCapabilities(model: Model): boolean {
  return model.methods.some(
    (m) => m.kind === "request" && m.delivery === "inputRequired" && m.capability?.side === "client",
  );
}

/** The server capability a notification needs (`tools.listChanged`), as a path. */
function notificationCapability(model: Model, method: string): string[] {
  const entry = model.methods.find(
    (m) => m.method === method && m.kind === "notification" && m.direction === "serverToClient",
  );
  return entry?.capability?.side === "server" ? entry.capability.path : [];
}

/** The runtime's CachingFacts: each cacheable method with the params field a notification names it by. */
function cachingFacts(caching: Caching) {
  const methods: Record<string, string | null> = {};
  for (const method of caching.methods) {
    const matches = caching.invalidations.filter((i) => i.methods.includes(method) && i.match !== undefined);
    const fields = [...new Set(matches.map((i) => i.match))];
    if (fields.length > 1) throw new Error(`client: notifications name ${method} results by ${fields.join(" and ")}`);
    methods[method] = fields[0] ?? null;
  }
  const invalidations = Object.fromEntries(
    caching.invalidations.map(({ notification, methods: stale, match }) => [
      notification,
      match === undefined ? { methods: stale } : { methods: stale, match },
    ]),
  );
  return { ttl: caching.ttl, scope: caching.scope, shared: caching.shared, methods, invalidations };
}
