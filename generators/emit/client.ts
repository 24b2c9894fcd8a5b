// generated/<rev>/client.ts: a typed client over the runtime's Peer. One method per
// client→server request, pagination helpers, typed notification listeners, handlers for
// server→client requests (whose presence declares client capabilities), and the revision's
// own way of starting (handshake or discovery) and of carrying per-request `_meta` and
// multi round-trip input: all read from the model's method map and `protocol`.
import { hasBatches } from "../model/envelopes.js";
import type { Caching, FieldBinding, Model } from "../model/model.js";
import { headerView, type Artifact, type EmitEnv } from "./artifact.js";
import { ImportList, stringLiteral, valueLiteral } from "./code.js";
import { renderTemplate } from "./render.js";
import { methodViews, reservedParams, stateTypesOf } from "./session-view.js";

/** Client state a protocol field can carry (see spec/method-inferences.json `protocol`). */
const CLIENT_OPTIONS = new Set(["clientInfo", "clientCapabilities", "protocolVersion"]);

export const clientArtifact: Artifact = {
  file: "client.ts",
  emit(model: Model, env: EmitEnv) {
    const protocol = model.protocol;
    const requests = methodViews(model, "request", "clientToServer").filter((m) => m.delivery === "message");
    const handlers = methodViews(model, "request", "serverToClient");
    const reserved = new Set(["connect", "close", "request", "notify", "on", "state", "listen"]);
    for (const r of requests) {
      if (reserved.has(r.name)) throw new Error(`client: request ${r.method} would shadow client.${r.name}`);
    }
    const paginated = new Set(protocol.pagination?.methods ?? []);
    const stateTypes = stateTypesOf(model);

    const imports = new ImportList();
    imports.addNamespace("./types.js", "T");
    imports.add(`${env.runtimeImport}/index.js`, "Peer", false);
    imports.add(`${env.runtimeImport}/index.js`, "RpcError", false);
    imports.add(`${env.runtimeImport}/index.js`, "ErrorCode", false);
    imports.add(`${env.runtimeImport}/index.js`, "ConnectionClosedError", false);
    imports.addTypes(`${env.runtimeImport}/index.js`, ["IncomingContext", "JsonObject", "RequestOptions", "Transport"]);
    imports.add("./methods.js", "REVISION", false);
    imports.addTypes("./methods.js", [
      "ClientNotificationMap",
      "ClientRequestMap",
      "ServerNotificationMap",
      "ServerRequestMap",
    ]);
    imports.add("./validators.js", "validateMessage", false);
    imports.add(`${env.runtimeImport}/index.js`, "RuleBook", false);
    imports.addTypes(`${env.runtimeImport}/index.js`, ["Negotiated"]);
    // Helpers the same for every revision: the runtime's, given this revision's tables.
    for (const name of ["declareCapabilities", "gatingCapability", "inspection"])
      imports.add(`${env.runtimeImport}/index.js`, name, false);
    imports.addTypes(`${env.runtimeImport}/index.js`, ["HandlerCapabilities"]);
    for (const name of [
      "PROTOCOL_RULES",
      "CLIENT_REQUEST_INFO",
      "CLIENT_NOTIFICATION_INFO",
      "SERVER_NOTIFICATION_INFO",
    ])
      imports.add("./methods.js", name, false);
    if (protocol.inputRequired) imports.add(`${env.runtimeImport}/index.js`, "asksForInput", false);
    if (protocol.resultTypes) imports.add(`${env.runtimeImport}/index.js`, "responseResult", false);
    if (protocol.http) imports.add("./methods.js", "HTTP_BINDING", false);
    if (protocol.caching) {
      imports.add(`${env.runtimeImport}/index.js`, "ResponseCache", false);
      imports.addTypes(`${env.runtimeImport}/index.js`, ["CachingFacts", "ResponseCacheOptions"]);
    }
    const subscriptions = protocol.subscriptions;
    const unsupported = protocol.unsupportedVersion;
    const supportedField = unsupported?.data.find((f) => f.state === "supportedVersions")?.field;
    if (unsupported && supportedField) imports.add("./methods.js", unsupported.constant, false);

    const cancellation = protocol.cancellation;
    const progress = protocol.progress;
    return renderTemplate("client", {
      ...headerView(model, env),
      imports: imports.render(),
      reservedParams: reservedParams(model).map(stringLiteral).join(" | "),
      requests: requests.map((r) => ({ ...r, pages: paginated.has(r.method) })),
      handlers,
      handlerCapabilities: handlers.filter((h) => h.capability?.side === "client"),
      batches: hasBatches(model.envelopes),
      taskFields: protocol.taskAugmentation && valueLiteral(protocol.taskAugmentation.fields),
      taskProgress: protocol.taskProgress !== undefined,
      httpBinding: protocol.http !== undefined,
      stateOptions: Object.entries(stateTypes)
        .filter(([state]) => !CLIENT_OPTIONS.has(state) && requestMetaStates(model).has(state))
        .map(([state, type]) => ({ state, type })),
      serverState: ["serverCapabilities", "serverInfo", "instructions"].map((state) => ({
        state,
        literal: stringLiteral(state),
        type: stateTypes[state] ?? "unknown",
      })),
      handshake: protocol.handshake && {
        request: stringLiteral(protocol.handshake.request),
        notification: stringLiteral(protocol.handshake.notification),
        params: bindings(protocol.handshake.params),
        result: bindings(protocol.handshake.result),
      },
      discovery: protocol.discovery && {
        request: stringLiteral(protocol.discovery.request),
        result: bindings(protocol.discovery.result),
      },
      requestMeta: protocol.requestMeta && bindings(protocol.requestMeta.fields),
      resultMeta: protocol.resultMeta && bindings(protocol.resultMeta.fields),
      urlElicitation: protocol.urlElicitation !== undefined,
      inputRequired: protocol.inputRequired && {
        requests: stringLiteral(protocol.inputRequired.requests),
        responses: stringLiteral(protocol.inputRequired.responses),
        state: stringLiteral(protocol.inputRequired.state),
      },
      send: unsupported && supportedField ? "send" : "request",
      unsupportedVersion: unsupported &&
        supportedField && { constant: unsupported.constant, supported: stringLiteral(supportedField) },
      listen: subscriptions && {
        method: subscriptions.request,
        literal: stringLiteral(subscriptions.request),
        filter: stringLiteral(subscriptions.filter),
        acknowledged: stringLiteral(subscriptions.acknowledged),
        idMeta: stringLiteral(subscriptions.idMeta),
        unacknowledged: stringLiteral(`${subscriptions.request} ended before the server acknowledged it`),
      },
      caching: protocol.caching && cachingLiteral(protocol.caching),
      resultTypes: protocol.resultTypes !== undefined,
      resultDefaults: protocol.resultDefaults?.fields.map((f) => ({
        field: stringLiteral(f.field),
        value: valueLiteral(f.value),
      })),
      pagination: protocol.pagination && {
        cursor: stringLiteral(protocol.pagination.cursor),
        next: stringLiteral(protocol.pagination.next),
      },
      cancellation: cancellation && {
        value: valueLiteral({
          method: cancellation.method,
          send: cancellation.directions.includes("clientToServer"),
          // The lifecycle page: the handshake is never cancelled.
          notFor: protocol.handshake ? [protocol.handshake.request] : undefined,
          // The cancellation page of revisions with subscriptions: a server cancels only a stream it ends.
          endsOwn: subscriptions?.endedBy === cancellation.method ? [subscriptions.request] : undefined,
        }),
      },
      progress: progress && {
        value: valueLiteral({ method: progress.method, send: progress.directions.includes("clientToServer") }),
      },
    });
  },
};

/** The runtime's CachingFacts: each cacheable method with the params field a notification names it by. */
function cachingLiteral(caching: Caching): string {
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
  return valueLiteral({ ttl: caching.ttl, scope: caching.scope, shared: caching.shared, methods, invalidations });
}

function bindings(fields: FieldBinding[]) {
  return fields.map((f) => ({ field: stringLiteral(f.field), state: stringLiteral(f.state), required: f.required }));
}

function requestMetaStates(model: Model): Set<string> {
  return new Set(model.protocol.requestMeta?.fields.map((f) => f.state) ?? []);
}
