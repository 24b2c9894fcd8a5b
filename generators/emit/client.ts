// generated/<rev>/client.ts: the typed face of the runtime's client
// (runtime/client/protocol-client.ts) for one revision: one method per client→server request,
// pagination helpers, the handlers for server→client requests, the options of the revision's
// per-request `_meta` state, and `createClient` over the revision's facts (methods.ts SESSION).
import type { Model } from "../model/model.js";
import { headerView, type Artifact, type EmitEnv } from "./artifact.js";
import { ImportList, stringLiteral } from "./code.js";
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
    const reserved = new Set(["connect", "close", "request", "notify", "on", "server", "listen"]);
    for (const r of requests) {
      if (reserved.has(r.name)) throw new Error(`client: request ${r.method} would shadow client.${r.name}`);
    }
    const paginated = new Set(protocol.pagination?.methods ?? []);
    const stateTypes = stateTypesOf(model);

    const runtime = `${env.runtimeImport}/index.js`;
    const core = `${env.runtimeImport}/client/protocol-client.js`;
    const imports = new ImportList();
    imports.addNamespace("./types.js", "T");
    imports.addTypes(runtime, ["IncomingContext", "RequestOptions"]);
    imports.add(core, "createProtocolClient", false);
    imports.add(core, "ProtocolVersionError", false);
    imports.addTypes(core, ["ClientCore", "ClientCoreOptions"]);
    if (protocol.subscriptions) imports.addTypes(core, ["SubscriptionCore"]);
    imports.add("./methods.js", "SESSION", false);
    imports.addTypes("./methods.js", [
      "ClientNotificationMap",
      "ClientRequestMap",
      "ServerNotificationMap",
      "ServerRequestMap",
    ]);
    imports.add("./validators.js", "validateMessage", false);

    // Options only some revisions have are left out of the others' ClientOptions.
    const without = [...(protocol.handshake ? [] : ["acceptProtocolVersions"]), ...(protocol.caching ? [] : ["cache"])];
    const base = "ClientCoreOptions<ClientHandlers, T.Implementation, T.ClientCapabilities>";
    const subscriptions = protocol.subscriptions;
    return renderTemplate("client", {
      ...headerView(model, env),
      imports: imports.render(),
      optionsBase: without.length > 0 ? `Omit<${base}, ${without.map(stringLiteral).join(" | ")}>` : base,
      reservedParams: reservedParams(model).map(stringLiteral).join(" | "),
      requests: requests.map((r) => ({ ...r, pages: paginated.has(r.method) })),
      handlers,
      stateOptions: Object.entries(stateTypes)
        .filter(([state]) => !CLIENT_OPTIONS.has(state) && requestMetaStates(model).has(state))
        .map(([state, type]) => ({ state, type })),
      serverState: ["serverCapabilities", "serverInfo", "instructions"].map((state) => ({
        state,
        type: stateTypes[state] ?? "unknown",
      })),
      handshake: protocol.handshake !== undefined,
      discovery: protocol.discovery !== undefined,
      listen: subscriptions && {
        method: subscriptions.request,
        literal: stringLiteral(subscriptions.request),
        filter: stringLiteral(subscriptions.filter),
      },
    });
  },
};

function requestMetaStates(model: Model): Set<string> {
  return new Set(model.protocol.requestMeta?.fields.map((f) => f.state) ?? []);
}
