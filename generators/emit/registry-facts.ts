// What the registry needs to know about a revision (methods.ts `REGISTRY_FACTS`, the runtime's
// McpServerFacts) and what its typed face needs (registry.ts): pagination fields, which errors
// failed checks are, the list-changed, resource-updated and log notifications with their
// capabilities, whether connections set their own log level and subscriptions, the tool result
// type, output schemas, cache fields and multi round-trip input. One walk, for both files.
import type { Model, TypeNode } from "../model/model.js";
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

export function registryFacts(model: Model) {
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
  // Connections of handshake revisions set their own log level and subscribe to resources.
  if (stateless === (subscribe !== undefined) || stateless === (setLevel !== undefined))
    throw new Error(`registry: ${model.revision} has subscribe and setLevel only with a handshake`);

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

  const levels = logLevelType(model, logging.method);
  return {
    facts: {
      ...profile,
      logLevels: levels.levels,
      logNotification: logging.method,
      listChanges,
      updated,
      perConnection: !stateless,
    },
    logLevelType: levels.name,
    toolResult,
    stateless,
    outputSchemas,
    cacheFields,
    cacheOwner,
    inputMethods,
  };
}

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
