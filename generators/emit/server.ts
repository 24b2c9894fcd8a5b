// generated/<rev>/server.ts: the handler interface (one optional member per client→server
// request and notification) and a dispatcher over the runtime's Peer that validates every
// message, answers the revision's own session requests (handshake or discovery), derives
// capabilities from the handlers present, and gives handlers typed server→client calls.
import { hasBatches } from "../model/envelopes.js";
import type { FieldBinding, Model } from "../model/model.js";
import { headerView, type Artifact, type EmitEnv } from "./artifact.js";
import { ImportList, stringLiteral, valueLiteral } from "./code.js";
import { renderTemplate } from "./render.js";
import { methodViews, stateTypesOf } from "./session-view.js";

export const serverArtifact: Artifact = {
  file: "server.ts",
  emit(model: Model, env: EmitEnv) {
    const protocol = model.protocol;
    const requests = methodViews(model, "request", "clientToServer").filter((m) => m.delivery === "message");
    const notifications = methodViews(model, "notification", "clientToServer");
    const outgoing = methodViews(model, "request", "serverToClient").filter((m) => m.delivery === "message");
    const sessionMethods = new Set(
      [protocol.handshake?.request, protocol.discovery?.request].filter((m) => m !== undefined),
    );
    const contextNames = new Set(["requestId", "signal", "meta", "authInfo", "progress", "client", "notify"]);
    for (const r of outgoing) {
      if (contextNames.has(r.name)) throw new Error(`server: request ${r.method} would shadow context.${r.name}`);
    }

    // Cancellation and progress notifications are the runtime's; handlers see the rest.
    const handled = notifications.filter(
      (n) => n.method !== protocol.cancellation?.method && n.method !== protocol.progress?.method,
    );

    const runtime = `${env.runtimeImport}/index.js`;
    const imports = new ImportList();
    imports.addNamespace("./types.js", "T");
    for (const name of ["Peer", "RpcError", "ErrorCode"]) imports.add(runtime, name, false);
    imports.addTypes(runtime, ["IncomingContext", "IncomingNotificationContext", "JsonObject", "Transport"]);
    imports.add("./methods.js", "REVISION", false);
    imports.addTypes("./methods.js", ["ClientRequestMap", "ServerNotificationMap"]);
    // Revisions without server→client requests or client notifications (2026-07-28) need neither
    // map; importing them anyway would fail consumers that compile with noUnusedLocals.
    if (outgoing.length > 0) imports.addTypes(runtime, ["RequestOptions"]);
    if (outgoing.length > 0) imports.addTypes("./methods.js", ["ServerRequestMap"]);
    if (handled.length > 0) imports.addTypes("./methods.js", ["ClientNotificationMap"]);
    imports.add("./validators.js", "validateMessage", false);
    imports.add(runtime, "RuleBook", false);
    imports.addTypes(runtime, ["Negotiated"]);
    // Helpers the same for every revision: the runtime's, given this revision's tables.
    for (const name of ["declareCapabilities", "gatingCapability", "inspection"]) imports.add(runtime, name, false);
    imports.addTypes(runtime, ["HandlerCapabilities"]);
    imports.add("./methods.js", "PROTOCOL_RULES", false);
    imports.add("./methods.js", "SERVER_NOTIFICATION_INFO", false);
    if (outgoing.length > 0) imports.add("./methods.js", "SERVER_REQUEST_INFO", false);
    if (handled.length > 0) imports.add("./methods.js", "CLIENT_NOTIFICATION_INFO", false);
    if (protocol.unsupportedVersion) imports.add("./types.js", protocol.unsupportedVersion.constant, false);
    if (protocol.http) imports.add("./methods.js", "HTTP_BINDING", false);
    const ir = protocol.inputRequired;
    const missing = protocol.missingCapability;
    // Input requests the client must have declared a capability for (MRTR: sampling, elicitation, roots).
    const inputCapabilities = ir && missing ? inputRequestCapabilities(model) : [];
    if (inputCapabilities.length > 0 && missing) {
      imports.add("./types.js", missing.constant, false);
      imports.add("./methods.js", "SERVER_REQUEST_INFO", false);
      for (const name of ["RuleViolation", "asksForInput"]) imports.add(runtime, name, false);
    }
    if (protocol.subscriptions) imports.addTypes(runtime, ["RequestId"]);
    if (ir) imports.addTypes(runtime, ["RequestStateSeal"]);

    const stateTypes = stateTypesOf(model);
    const clientStates = [...(protocol.handshake?.params ?? []), ...(protocol.requestMeta?.fields ?? [])].map(
      (f) => f.state,
    );
    const defaults = protocol.resultDefaults?.fields.map((f) => ({
      field: stringLiteral(f.field),
      value: valueLiteral(f.value),
    }));
    const subscriptions = protocol.subscriptions;
    // The server answers the listen request itself: it is no handler's.
    const served = requests.filter((r) => r.method !== subscriptions?.request);
    return renderTemplate("server", {
      ...headerView(model, env),
      imports: imports.render(),
      clientState: [...new Set(clientStates)].map((state) => ({ state, type: stateTypes[state] ?? "unknown" })),
      requests: served.map((r) => ({ ...r, session: sessionMethods.has(r.method) })),
      handlerCapabilities: served.filter((r) => r.capability?.side === "server"),
      stateless: !protocol.handshake,
      httpBinding: protocol.http !== undefined,
      inputRequired: inputCapabilities.length > 0 &&
        ir &&
        missing && {
          error: missing.constant,
          data: stringLiteral(missing.data),
        },
      requestState: ir && {
        field: stringLiteral(ir.state),
        marker: { field: stringLiteral(ir.marker.field), value: valueLiteral(ir.marker.value) },
      },
      requestLogging: protocol.requestLogging && {
        notification: stringLiteral(protocol.requestLogging.notification),
        field: stringLiteral(protocol.requestLogging.field),
        state: protocol.requestLogging.state,
        levels: valueLiteral(protocol.requestLogging.levels),
      },
      subscriptions: subscriptions && {
        request: stringLiteral(subscriptions.request),
        filter: stringLiteral(subscriptions.filter),
        acknowledged: stringLiteral(subscriptions.acknowledged),
        idMeta: stringLiteral(subscriptions.idMeta),
        flags: valueLiteral(
          subscriptions.flags.map((f) => ({ ...f, capability: notificationCapability(model, f.notification) })),
        ),
        lists: valueLiteral(
          subscriptions.lists.map((l) => ({ ...l, capability: notificationCapability(model, l.notification) })),
        ),
      },
      notifications: handled,
      outgoing,
      resultDefaults: defaults ?? [],
      batches: hasBatches(model.envelopes),
      taskFields: protocol.taskAugmentation && valueLiteral(protocol.taskAugmentation.fields),
      taskProgress: protocol.taskProgress !== undefined,
      handshake: protocol.handshake && {
        request: stringLiteral(protocol.handshake.request),
        notification: stringLiteral(protocol.handshake.notification),
        allowedBefore: valueLiteral([protocol.handshake.request, ...protocol.handshake.allowedBefore]),
        params: bindings(protocol.handshake.params),
        result: bindings(protocol.handshake.result),
      },
      discovery: protocol.discovery && {
        request: stringLiteral(protocol.discovery.request),
        result: bindings(protocol.discovery.result),
        defaults: Object.entries(protocol.discovery.defaults).map(([field, value]) => ({
          field: stringLiteral(field),
          value: valueLiteral(value),
        })),
      },
      requestMeta: protocol.requestMeta && bindings(protocol.requestMeta.fields),
      resultMeta: protocol.resultMeta && bindings(protocol.resultMeta.fields),
      unsupportedVersion: protocol.unsupportedVersion && {
        constant: protocol.unsupportedVersion.constant,
        data: bindings(protocol.unsupportedVersion.data),
      },
      urlElicitation: protocol.urlElicitation !== undefined,
      cancellation: protocol.cancellation && {
        method: stringLiteral(protocol.cancellation.method),
        value: valueLiteral({
          method: protocol.cancellation.method,
          send: protocol.cancellation.directions.includes("serverToClient"),
          // The lifecycle page: clients never cancel the handshake; such a notification is ignored.
          notFor: protocol.handshake ? [protocol.handshake.request] : undefined,
        }),
      },
      progress: protocol.progress && {
        value: valueLiteral({
          method: protocol.progress.method,
          send: protocol.progress.directions.includes("serverToClient"),
        }),
      },
    });
  },
};

/** Method → the client capability path an input request of that method needs. */
function inputRequestCapabilities(model: Model): [string, string[]][] {
  return model.methods.flatMap((m) =>
    m.kind === "request" && m.delivery === "inputRequired" && m.capability?.side === "client"
      ? [[m.method, m.capability.path] as [string, string[]]]
      : [],
  );
}

/** The server capability a notification needs (`tools.listChanged`), as a path. */
function notificationCapability(model: Model, method: string): string[] {
  const entry = model.methods.find(
    (m) => m.method === method && m.kind === "notification" && m.direction === "serverToClient",
  );
  return entry?.capability?.side === "server" ? entry.capability.path : [];
}

function bindings(fields: FieldBinding[]) {
  return fields.map((f) => ({ field: stringLiteral(f.field), state: stringLiteral(f.state), required: f.required }));
}
