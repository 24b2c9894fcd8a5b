// generated/<rev>/server.ts: the handler interface (one optional member per client→server
// request and notification), the handler context with typed server→client calls, and
// `createServer`, which types the runtime's server (runtime/server/protocol-server.ts) run on
// the revision's facts (methods.ts SESSION).
import type { Model } from "../model/model.js";
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
    const core = `${env.runtimeImport}/server/protocol-server.js`;
    const imports = new ImportList();
    imports.addNamespace("./types.js", "T");
    for (const name of ["RpcError", "ErrorCode"]) imports.add(runtime, name, false);
    imports.addTypes(runtime, ["IncomingContext", "IncomingNotificationContext"]);
    imports.add(core, "createProtocolServer", false);
    imports.addTypes(core, ["ServerCore", "ServerCoreOptions"]);
    imports.add("./methods.js", "SESSION", false);
    imports.addTypes("./methods.js", ["ClientRequestMap", "ServerNotificationMap"]);
    // Revisions without server→client requests or client notifications (2026-07-28) need neither
    // map; importing them anyway would fail consumers that compile with noUnusedLocals.
    if (outgoing.length > 0) imports.addTypes(runtime, ["RequestOptions"]);
    if (outgoing.length > 0) imports.addTypes("./methods.js", ["ServerRequestMap"]);
    if (handled.length > 0) imports.addTypes("./methods.js", ["ClientNotificationMap"]);
    imports.add("./validators.js", "validateMessage", false);
    if (protocol.http) imports.add("./methods.js", "HTTP_BINDING", true);

    const stateTypes = stateTypesOf(model);
    const clientStates = [...(protocol.handshake?.params ?? []), ...(protocol.requestMeta?.fields ?? [])].map(
      (f) => f.state,
    );
    const defaults = protocol.resultDefaults?.fields.map((f) => ({
      field: stringLiteral(f.field),
      value: valueLiteral(f.value),
    }));
    // The server answers the listen request itself: it is no handler's.
    const served = requests.filter((r) => r.method !== protocol.subscriptions?.request);
    return renderTemplate("server", {
      ...headerView(model, env),
      imports: imports.render(),
      clientState: [...new Set(clientStates)].map((state) => ({ state, type: stateTypes[state] ?? "unknown" })),
      requests: served.map((r) => ({ ...r, session: sessionMethods.has(r.method) })),
      stateless: !protocol.handshake,
      httpBinding: protocol.http !== undefined,
      requestState: protocol.inputRequired !== undefined,
      notifications: handled,
      outgoing,
      resultDefaults: defaults ?? [],
    });
  },
};
