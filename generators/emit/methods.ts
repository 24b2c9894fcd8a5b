// generated/<rev>/methods.ts: typed method maps in both directions, method-name unions and
// arrays, the capability that gates each method, and the protocol constants.
import type { Direction, MethodEntry, Model } from "../model/model.js";
import { referencedNames } from "../model/walk.js";
import { headerView, seeLine, type Artifact, type EmitEnv } from "./artifact.js";
import { docComment, ImportList, stringLiteral, valueLiteral } from "./code.js";
import { printType } from "./print-type.js";
import { renderTemplate } from "./render.js";
import { registryFacts } from "./registry-facts.js";
import { sessionFactsLiteral } from "./session-facts.js";
import { methodViews, type MethodView } from "./session-view.js";

interface MapSpec {
  name: string;
  kind: MethodEntry["kind"];
  direction: Direction;
  summary: string;
  /** Prefix of the derived names: `ClientRequest` → ClientRequestMethod, CLIENT_REQUEST_METHODS, CLIENT_REQUEST_INFO. */
  stem: string;
}

const MAPS: MapSpec[] = [
  {
    name: "ClientRequestMap",
    stem: "ClientRequest",
    kind: "request",
    direction: "clientToServer",
    summary: "Requests a client sends to a server: method → message, params and result.",
  },
  {
    name: "ServerRequestMap",
    stem: "ServerRequest",
    kind: "request",
    direction: "serverToClient",
    summary: "Requests a server sends to a client: method → message, params and result.",
  },
  {
    name: "ClientNotificationMap",
    stem: "ClientNotification",
    kind: "notification",
    direction: "clientToServer",
    summary: "Notifications a client sends to a server: method → message and params.",
  },
  {
    name: "ServerNotificationMap",
    stem: "ServerNotification",
    kind: "notification",
    direction: "serverToClient",
    summary: "Notifications a server sends to a client: method → message and params.",
  },
];

export const methodsArtifact: Artifact = {
  file: "methods.ts",
  emit(model: Model, env: EmitEnv) {
    const imports = new ImportList();
    for (const c of model.constants) imports.add("./types.js", c.name, false);
    imports.addTypes(`${env.runtimeImport}/session-facts.js`, ["MethodInfo", "SessionFacts"]);
    imports.addTypes(`${env.runtimeImport}/server/mcp-server.js`, ["McpServerFacts"]);
    const maps = MAPS.map((spec) => {
      const entries = model.methods.filter((m) => m.kind === spec.kind && m.direction === spec.direction);
      const views = new Map(methodViews(model, spec.kind, spec.direction).map((v) => [v.method, v]));
      // A handler's presence declares its capability on the side that handles the request.
      const handlerSide = spec.direction === "clientToServer" ? "server" : "client";
      imports.addTypes("./types.js", entriesTypeNames(entries));
      return {
        name: spec.name,
        summary: spec.summary,
        methodType: `${spec.stem}Method`,
        arrayName: `${constantCase(spec.stem)}_METHODS`,
        infoName: `${constantCase(spec.stem)}_INFO`,
        entries: entries.map((m) => ({
          key: stringLiteral(m.method),
          doc: docComment([seeLine(env, m.type)]),
          value: entryType(m),
          info: infoLiteral(m, views.get(m.method), handlerSide),
        })),
      };
    });
    return renderTemplate("methods", {
      ...headerView(model, env),
      imports: imports.render(),
      constantNames: model.constants.map((c) => c.name).join(", "),
      revision: stringLiteral(model.revision),
      maps,
      httpBinding: httpBindingLiteral(model),
      rules: rulesLiteral(model),
      session: sessionFactsLiteral(model),
      registry: valueLiteral(registryFacts(model).facts),
    });
  },
};

/** A method's runtime facts (the runtime's MethodInfo). */
function infoLiteral(m: MethodEntry, view: MethodView | undefined, handlerSide: "client" | "server"): string {
  if (!view) throw new Error(`methods: no view of ${m.method}`);
  return valueLiteral({
    kind: m.kind,
    delivery: m.delivery,
    messageType: m.type,
    capability: m.capability,
    member: m.kind === "request" ? view.name : `on${view.pascal}`,
    emptyParams: view.emptyParams || undefined,
    emptyResult: view.emptyResult || undefined,
    declares: m.kind === "request" && m.capability?.side === handlerSide ? view.declares : undefined,
  });
}

/** The revision's HTTP binding as a literal; error codes by the schema's own constants. */
function httpBindingLiteral(model: Model): string | undefined {
  const http = model.protocol.http;
  if (!http) return undefined;
  if (http.kind === "sessions") return valueLiteral(http);
  const { headerMismatch, missingCapability, unsupportedVersion, ...rest } = http;
  const codes = { headerMismatch, missingCapability, unsupportedVersion };
  const fields = Object.entries(codes).map(([key, code]) => `${key}: ${code.constant}`);
  // The endpoint names it to a client of another revision (the unsupported-version refusal's `supported`).
  return `{ ${valueLiteral(rest).slice(1, -1).trim()}, ${fields.join(", ")}, revision: REVISION }`;
}

/** The facts the runtime's rule checks run on (runtime/rules/facts.ts), from the model. */
function rulesLiteral(model: Model): string {
  const p = model.protocol;
  const paramGates: Record<string, Record<string, object[]>> = {};
  for (const { method, direction, ...gate } of p.paramGates ?? [])
    ((paramGates[direction] ??= {})[method] ??= []).push(gate);
  const ir = p.inputRequired;
  const urlElicitation = p.urlElicitation && {
    ...p.urlElicitation,
    requiredError: p.urlElicitation.requiredError && {
      code: p.urlElicitation.requiredError.code,
      data: p.urlElicitation.requiredError.data,
    },
  };
  return valueLiteral({
    ...(p.paramGates ? { paramGates } : {}),
    ...(p.samplingTools ? { samplingTools: p.samplingTools } : {}),
    ...(p.rootUris ? { rootUris: p.rootUris } : {}),
    ...(urlElicitation ? { urlElicitation } : {}),
    ...(p.contentMime ? { contentMime: p.contentMime } : {}),
    ...(p.taskProgress ? { taskProgress: p.taskProgress } : {}),
    ...(p.extensionIds ? { extensionIds: p.extensionIds } : {}),
    ...(p.resultTypes ? { resultTypes: p.resultTypes } : {}),
    // Pages of a list followed by its cursor share their cache scope.
    ...(p.caching && p.pagination ? { cacheScope: { field: p.caching.scope } } : {}),
    ...(ir
      ? {
          inputRequired: {
            marker: ir.marker,
            // The requests whose result may be the input-asking one (the schema's result unions).
            methods: model.methods
              .filter(
                (m) =>
                  m.result?.kind === "union" && m.result.members.some((r) => r.kind === "ref" && r.name === ir.result),
              )
              .map((m) => m.method),
            requests: ir.requests,
            state: ir.state,
          },
        }
      : {}),
  });
}

function entriesTypeNames(entries: MethodEntry[]): string[] {
  const nodes = entries.flatMap((m) => [
    { kind: "ref" as const, name: m.type },
    // Inline params are named through the message type, so only a named params type is imported.
    ...(m.params?.type.kind === "ref" ? [m.params.type] : []),
    ...(m.result ? [m.result] : []),
  ]);
  return referencedNames(nodes);
}

/** `{ message; params; result }` for one method. Inline params are named through the message type. */
function entryType(m: MethodEntry): string {
  const fields = [`message: ${m.type};`];
  if (!m.params) {
    fields.push("params?: undefined;");
  } else {
    const inline = `${m.type}["params"]`;
    const type =
      m.params.type.kind === "ref" ? printType(m.params.type) : m.params.optional ? `NonNullable<${inline}>` : inline;
    fields.push(`params${m.params.optional ? "?" : ""}: ${type};`);
  }
  if (m.result) fields.push(`result: ${printType(m.result)};`);
  return `{ ${fields.join(" ")} }`;
}

function constantCase(stem: string): string {
  return stem.replace(/([a-z0-9])([A-Z])/g, "$1_$2").toUpperCase();
}
