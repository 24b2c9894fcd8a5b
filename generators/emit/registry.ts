// generated/<rev>/registry.ts: `createMcpServer`, the registry of tools, resources and prompts
// on the revision's generated server. The work is runtime/server/ (the same for every
// revision); this file types it with the revision's own types and hands it what differs, read
// from the model: pagination fields, which errors failed checks are, the list-changed and
// resource-updated notifications with their capabilities, per-connection log levels and
// subscriptions (handshake revisions) or the server's own subscriptions (stateless ones), cache
// fields and multi round-trip input where the revision has them.
import type { Model, TypeNode } from "../model/model.js";
import { headerView, type Artifact } from "./artifact.js";
import { ImportList, propertyKey, stringLiteral, valueLiteral } from "./code.js";
import { renderTemplate } from "./render.js";
import { methodViews } from "./session-view.js";

/** The requests the registry answers, by the handler that answers them; all must exist. */
const SERVED = {
  listTools: "tools/list",
  callTool: "tools/call",
  listResources: "resources/list",
  listResourceTemplates: "resources/templates/list",
  readResource: "resources/read",
  listPrompts: "prompts/list",
  getPrompt: "prompts/get",
  complete: "completion/complete",
} as const;
/** The lists whose changes clients hear of, by the capability object that announces them. */
const LISTS = ["tools", "resources", "prompts"] as const;
/** Members every request context has besides the revision's calls back to the client. */
const CONTEXT_MEMBERS = ["requestId", "signal", "meta", "authInfo", "progress", "client", "notify"];

export const registryArtifact: Artifact = {
  file: "registry.ts",
  emit(model: Model, env) {
    const protocol = model.protocol;
    const requests = methodViews(model, "request", "clientToServer");
    const byMethod = new Map(requests.map((r) => [r.method, r]));
    for (const [handler, method] of Object.entries(SERVED)) {
      if (byMethod.get(method)?.name !== handler)
        throw new Error(`registry: ${model.revision} has no ${method} answered by ${handler}`);
    }
    const errors = protocol.serverErrors;
    const pagination = protocol.pagination;
    if (!errors || !pagination) throw new Error(`registry: ${model.revision} lacks server errors or pagination`);
    const notifications = model.methods.filter((m) => m.kind === "notification" && m.direction === "serverToClient");
    /** The server→client notification gated by a server capability path, and that path. */
    const gatedBy = (path: string[]) => {
      const found = notifications.find(
        (n) => n.capability?.side === "server" && n.capability.path.join(".") === path.join("."),
      );
      if (!found) throw new Error(`registry: ${model.revision} has no notification gated by ${path.join(".")}`);
      return { method: found.method, capability: nest(path) };
    };
    const listChanges = Object.fromEntries(LISTS.map((kind) => [kind, gatedBy([kind, "listChanged"])]));
    const updated = gatedBy(["resources", "subscribe"]);
    const logging = gatedBy(["logging"]);
    const subscribe = byMethod.get("resources/subscribe");
    const setLevel = byMethod.get("logging/setLevel");
    const stateless = !protocol.handshake;
    if (!stateless && !subscribe)
      throw new Error(`registry: ${model.revision} has neither subscriptions nor subscribe`);

    const callTool = model.methods.find((m) => m.method === "tools/call" && m.direction === "clientToServer");
    const toolResult = completeMember(callTool?.result, protocol.inputRequired?.result);
    const structured = model.declarations
      .find((d) => d.name === toolResult)
      ?.resolved?.properties.find((p) => p.name === "structuredContent");
    // Output schemas (and structured content) arrived with 2025-06-18: does a listed tool have one?
    const listed = resolvedOf(model, model.methods.find((m) => m.method === "tools/list")?.result)?.find(
      (p) => p.name === "tools",
    )?.type;
    const outputSchemas = resolvedOf(model, listed?.kind === "array" ? listed.items : undefined)?.some(
      (p) => p.name === "outputSchema",
    );
    if (outputSchemas === undefined) throw new Error(`registry: ${model.revision} lists no tools`);
    const ir = protocol.inputRequired;
    const inputMethods = model.methods.filter(
      (m) => m.kind === "request" && m.delivery === "inputRequired" && m.result?.kind === "ref",
    );
    const caching = protocol.caching;
    const cacheFields = caching && [caching.ttl, caching.scope];
    const cacheOwner =
      caching &&
      model.declarations
        .find(
          (d) => d.name === completeMember(byMethod.has("resources/read") ? readResult(model) : undefined, ir?.result),
        )
        ?.resolved?.properties.find((p) => p.name === caching.ttl)?.from;
    if (caching && !cacheOwner) throw new Error(`registry: ${model.revision} has no type declaring ${caching.ttl}`);

    const profile = {
      pagination: { cursor: pagination.cursor, next: pagination.next },
      toolArguments: errors.toolArguments,
      invalidParams: errors.invalidParams,
      resourceNotFound: errors.resourceNotFound,
      ...(ir ? { inputRequired: { field: ir.marker.field, value: ir.marker.value } } : {}),
      ...(caching && protocol.discovery
        ? { caching: { defaults: pick(protocol.discovery.defaults, [caching.ttl, caching.scope]) } }
        : {}),
      // Structured content typed as an object (2025 era) must be described by an object schema.
      structuredObject: !(structured?.type.kind === "primitive" && structured.type.name === "unknown"),
    };

    const runtime = `${env.runtimeImport}`;
    const imports = new ImportList();
    imports.addNamespace("./types.js", "T");
    imports.add(`${runtime}/server/index.js`, "Registry", false);
    imports.add(`${runtime}/server/index.js`, "REGISTRY", false);
    imports.addTypes(`${runtime}/server/index.js`, [
      "SharedRegistrations",
      "Accepted",
      "ListKind",
      "Parsed",
      "RegistryProfile",
      "Schema",
      "TemplateVariableName",
      "TemplateVariables",
    ]);
    imports.addTypes(`${runtime}/index.js`, ["ChangeEventBus", "Transport"]);
    imports.add(`${runtime}/index.js`, "mergeCapabilities", false);
    imports.add(`${runtime}/index.js`, "declaresAll", false);
    imports.add("./server.js", "createServer", false);
    imports.addTypes("./server.js", ["Answer", "RequestContext", "Server", "ServerHandlers", "ServerOptions"]);
    imports.add("./methods.js", "HTTP_BINDING", false);
    imports.addTypes("./methods.js", ["ClientRequestMap", "ServerNotificationMap"]);
    if (ir) {
      imports.add(`${runtime}/index.js`, "createRequestStateSeal", false);
      imports.addTypes(`${runtime}/index.js`, ["RequestStateSeal"]);
      imports.addTypes("./methods.js", ["ServerRequestMap"]);
      imports.add("./validators.js", "validators", false);
    }
    const levelType = logLevelType(model, logging.method);
    const outgoing = methodViews(model, "request", "serverToClient").filter((m) => m.delivery === "message");
    return renderTemplate("registry", {
      ...headerView(model, env),
      imports: imports.render(),
      profile: valueLiteral(profile),
      logLevels: valueLiteral(levelType.levels),
      logLevelType: `T.${levelType.name}`,
      logNotification: stringLiteral(logging.method),
      // context.log is always offered, so the capability its notification needs is declared.
      loggingCapability: valueLiteral(nest(["logging"], {})),
      listChangeMethods: LISTS.map((k) => stringLiteral(listChanges[k]?.method ?? "")).join(" | "),
      listChanges: valueLiteral(listChanges),
      toolResult: `T.${toolResult}`,
      forwarded: [...CONTEXT_MEMBERS, ...outgoing.map((m) => m.name)].map((name) => ({
        name,
        literal: stringLiteral(name),
      })),
      stateless,
      outputSchemas,
      subscribe: subscribe !== undefined,
      setLevel: setLevel !== undefined,
      updatedNotification: stringLiteral(updated.method),
      updatedCapability: valueLiteral(updated.capability),
      caching: cacheFields && {
        fields: cacheFields.map(stringLiteral).join(" | "),
        option: `Partial<Pick<T.${cacheOwner}, ${cacheFields.map(stringLiteral).join(" | ")}>>`,
      },
      inputRequired: ir && {
        result: `T.${ir.result}`,
        methods: inputMethods.map((m) => stringLiteral(m.method)).join(" | "),
        checks: `{ ${inputMethods
          .map((m) => `${stringLiteral(m.method)}: validators.${(m.result as { name: string }).name}.is`)
          .join(", ")} }`,
        marker: `${propertyKey(ir.marker.field)}: ${valueLiteral(ir.marker.value)}`,
        requests: propertyKey(ir.requests),
        responses: stringLiteral(ir.responses),
        state: propertyKey(ir.state),
        stateLiteral: stringLiteral(ir.state),
      },
    });
  },
};

/** The properties of a named type, after inheritance. */
function resolvedOf(model: Model, node: TypeNode | undefined) {
  return node?.kind === "ref" ? model.declarations.find((d) => d.name === node.name)?.resolved?.properties : undefined;
}

/** `["tools", "listChanged"]` → `{ tools: { listChanged: true } }`. */
function nest(path: string[], leaf: unknown = true): object {
  return path.reduceRight<unknown>((inner, key) => ({ [key]: inner }), leaf) as object;
}

function pick(values: Record<string, unknown>, keys: string[]): Record<string, unknown> {
  return Object.fromEntries(keys.filter((k) => k in values).map((k) => [k, values[k]]));
}

function readResult(model: Model): TypeNode | undefined {
  return model.methods.find((m) => m.method === "resources/read" && m.direction === "clientToServer")?.result;
}

/** The name of a result type, leaving out the multi round-trip member of a union. */
function completeMember(result: TypeNode | undefined, inputRequired: string | undefined): string {
  const members = result?.kind === "union" ? result.members : result ? [result] : [];
  const named = members.flatMap((m) => (m.kind === "ref" && m.name !== inputRequired ? [m.name] : []));
  if (named.length !== 1) throw new Error("registry: a result is not one named type");
  return named[0] as string;
}

/** The log notification's level type and its values, least severe first. */
function logLevelType(model: Model, notification: string): { name: string; levels: string[] } {
  const entry = model.methods.find((m) => m.method === notification && m.direction === "serverToClient");
  const params = entry?.params?.type;
  const properties =
    params?.kind === "ref"
      ? model.declarations.find((d) => d.name === params.name)?.resolved?.properties
      : params?.kind === "object"
        ? params.properties
        : undefined;
  const level = properties?.find((p) => p.name === "level")?.type;
  const alias = level?.kind === "ref" ? model.declarations.find((d) => d.name === level.name) : undefined;
  const members = alias?.kind === "alias" && alias.type.kind === "union" ? alias.type.members : [];
  const levels = members.flatMap((m) => (m.kind === "literal" && typeof m.value === "string" ? [m.value] : []));
  if (!alias || levels.length === 0) throw new Error(`registry: ${notification} has no level union`);
  return { name: alias.name, levels };
}
