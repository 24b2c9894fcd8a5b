// Pass: the schema facts the protocol rules of spec/protocol-rules.json stand on, from the
// reviewed tables in spec/method-inferences.json (`paramCapabilities`, and `protocol`'s
// samplingTools, rootUris, urlElicitation, contentMime, taskProgress, extensionIds and
// resultTypes). Each applies where the revision has the method and field it names; then
// everything else it names must exist too, so the table stays true.
import { resolveCapability } from "./capabilities.js";
import { ModelError } from "./errors.js";
import type { ParamCapabilityEntry, ProtocolTable } from "./inference-table.js";
import type {
  CapabilityRef,
  Declaration,
  ExtensionIds,
  LiteralValue,
  MethodEntry,
  ParamGate,
  ContentMime,
  ResultTypes,
  SamplingTools,
  Shape,
  TaskProgress,
  TypeNode,
  UrlElicitation,
} from "./model.js";

const where = "spec/method-inferences.json";

/** What the rule facts are read from. */
export class SchemaFacts {
  private readonly byName: Map<string, Declaration>;

  constructor(
    readonly declarations: Declaration[],
    readonly methods: MethodEntry[],
    readonly constants: { name: string; value: LiteralValue }[],
  ) {
    this.byName = new Map(declarations.map((d) => [d.name, d]));
  }

  request(method: string): MethodEntry | undefined {
    return this.methods.find((m) => m.method === method && m.kind === "request");
  }

  notification(method: string): MethodEntry | undefined {
    return this.methods.find((m) => m.method === method && m.kind === "notification");
  }

  /** The object shapes a type may take: a union's members each, through named aliases. */
  shapes(node: TypeNode | undefined): Shape[] {
    if (!node) return [];
    if (node.kind === "union") return node.members.flatMap((m) => this.shapes(m));
    if (node.kind === "object") return [{ properties: node.properties.map((p) => ({ ...p, from: "" })) }];
    if (node.kind !== "ref") return [];
    const decl = this.byName.get(node.name);
    if (decl?.kind === "alias" && decl.type.kind === "union") return this.shapes(decl.type);
    return decl?.resolved ? [decl.resolved] : [];
  }

  /** The field's type in every shape that has it. */
  field(node: TypeNode | undefined, name: string): TypeNode[] {
    return this.shapes(node).flatMap((s) => s.properties.filter((p) => p.name === name).map((p) => p.type));
  }

  /** The literal values a type admits, when it is made of literals (through aliases and unions). */
  literals(node: TypeNode): LiteralValue[] {
    if (node.kind === "literal") return [node.value];
    if (node.kind === "union") return node.members.flatMap((m) => this.literals(m));
    if (node.kind === "ref") {
      const decl = this.byName.get(node.name);
      return decl?.kind === "alias" ? this.literals(decl.type) : [];
    }
    return [];
  }

  /** The named types a type may be (through unions and union aliases). */
  refs(node: TypeNode): string[] {
    if (node.kind === "union") return node.members.flatMap((m) => this.refs(m));
    if (node.kind !== "ref") return [];
    const decl = this.byName.get(node.name);
    return decl?.kind === "alias" && decl.type.kind === "union" ? this.refs(decl.type) : [node.name];
  }

  declaration(name: string): Declaration | undefined {
    return this.byName.get(name);
  }
}

/** Params fields (or values) that need a capability; where the revision has both the field and the capability. */
export function buildParamGates(facts: SchemaFacts, table: Record<string, ParamCapabilityEntry[]>): ParamGate[] {
  const gates: ParamGate[] = [];
  for (const [method, entries] of Object.entries(table)) {
    if (method.startsWith("$")) continue;
    for (const entry of entries) {
      const request = facts.request(method);
      const types = facts.field(request?.params?.type, entry.field);
      if (!request || types.length === 0) continue;
      const admitted = types.flatMap((t) => facts.literals(t));
      for (const value of [...(entry.values ?? []), ...(entry.absentAs === undefined ? [] : [entry.absentAs])]) {
        if (!admitted.includes(value))
          throw new ModelError(`${where}: ${method} ${entry.field} admits no value ${JSON.stringify(value)}`);
      }
      // Where the capability does not exist yet (sampling.context before 2025-11-25), nothing gates the field.
      const capability = resolveCapability(entry.capability, facts.declarations, `${method} ${entry.field}`, true);
      if (!capability) continue;
      gates.push({
        method,
        direction: request.direction,
        field: entry.field,
        ...(entry.values ? { values: entry.values } : {}),
        ...(entry.absentAs === undefined ? {} : { absentAs: entry.absentAs }),
        capability,
        ...(entry.impliedByEmpty ? { impliedByEmpty: true } : {}),
        rule: entry.rule,
      });
    }
  }
  return gates;
}

/** Tool use in sampling, where the revision's sampling messages can carry tool content. */
export function buildSamplingTools(
  facts: SchemaFacts,
  table: ProtocolTable["samplingTools"],
): SamplingTools | undefined {
  const request = facts.request(table.request);
  const use = facts.declaration(table.use.type);
  const result = facts.declaration(table.result.type);
  if (!request || !use || !result) return undefined;
  const messages = facts.field(request.params?.type, table.messages);
  const message = messages[0]?.kind === "array" ? messages[0].items : undefined;
  if (!message || facts.field(message, table.content).length === 0)
    throw new ModelError(`${where}: ${table.request} params have no ${table.messages} with ${table.content}`);
  const choice = facts.field(request.params?.type, table.toolChoice.field)[0];
  const modes = facts.field(choice, table.toolChoice.mode).flatMap((t) => facts.literals(t));
  for (const mode of [table.toolChoice.none, table.toolChoice.required])
    if (!modes.includes(mode))
      throw new ModelError(`${where}: ${table.toolChoice.field}.${table.toolChoice.mode} has no ${mode}`);
  const stops = facts.field(request.result, table.stopReason.field).flatMap((t) => facts.literals(t));
  if (!stops.includes(table.stopReason.cutOff))
    throw new ModelError(
      `${where}: the ${table.request} result's ${table.stopReason.field} has no ${table.stopReason.cutOff}`,
    );
  return {
    request: table.request,
    messages: table.messages,
    content: table.content,
    use: { type: typeLiteral(facts, table.use.type), id: fieldOf(facts, table.use.type, table.use.id) },
    result: { type: typeLiteral(facts, table.result.type), id: fieldOf(facts, table.result.type, table.result.id) },
    capability: requiredCapability(facts, table.capability, "samplingTools"),
    toolChoice: table.toolChoice,
    stopReason: table.stopReason,
  };
}

/** The scheme roots must use, where the revision lists roots. */
export function buildRootUris(
  facts: SchemaFacts,
  table: ProtocolTable["rootUris"],
): { request: string; list: string; uri: string; scheme: string } | undefined {
  const request = facts.request(table.request);
  if (!request) return undefined;
  const list = facts.field(request.result, table.list)[0];
  if (list?.kind !== "array" || facts.field(list.items, table.uri).length === 0)
    throw new ModelError(`${where}: the ${table.request} result has no ${table.list} items with ${table.uri}`);
  return { request: table.request, list: table.list, uri: table.uri, scheme: table.scheme };
}

/** URL-mode elicitation with completion notifications, where the revision has the notification. */
export function buildUrlElicitation(
  facts: SchemaFacts,
  table: ProtocolTable["urlElicitation"],
): UrlElicitation | undefined {
  const request = facts.request(table.request);
  const complete = facts.notification(table.complete);
  if (!request || !complete) return undefined;
  const [field, value] = Object.entries(table.mode)[0] ?? [];
  if (field === undefined || value === undefined) throw new ModelError(`${where}: urlElicitation needs a mode`);
  const modes = facts.field(request.params?.type, field).flatMap((t) => facts.literals(t));
  if (!modes.includes(value)) throw new ModelError(`${where}: ${table.request} ${field} admits no ${value}`);
  const carriesId = (node: TypeNode | undefined) => facts.field(node, table.id).length > 0;
  if (!carriesId(request.params?.type) || !carriesId(complete.params?.type))
    throw new ModelError(`${where}: ${table.request} or ${table.complete} params have no ${table.id}`);
  const error = facts.constants.find((c) => c.name === table.requiredError.error);
  return {
    request: table.request,
    mode: { field, value },
    id: table.id,
    complete: table.complete,
    ...(typeof error?.value === "number"
      ? { requiredError: { constant: error.name, code: error.value, data: table.requiredError.data } }
      : {}),
  };
}

/** A capability the revision must have, since a field that needs it exists. */
function requiredCapability(facts: SchemaFacts, spec: string, what: string): CapabilityRef {
  const capability = resolveCapability(spec, facts.declarations, what);
  if (!capability) throw new ModelError(`${where}: ${what} needs ${spec}, which this revision does not have`);
  return capability;
}

/** The literal of a content block's `type` field (`tool_use`). */
function typeLiteral(facts: SchemaFacts, name: string): string {
  const [value] = facts.field({ kind: "ref", name }, "type").flatMap((t) => facts.literals(t));
  if (typeof value !== "string") throw new ModelError(`${where}: ${name} has no literal type`);
  return value;
}

function fieldOf(facts: SchemaFacts, name: string, field: string): string {
  if (facts.field({ kind: "ref", name }, field).length === 0)
    throw new ModelError(`${where}: ${name} has no field ${field}`);
  return field;
}

/**
 * Media blocks whose MIME type field must be well formed, in the results of the requests the
 * table lists: where the revision has the request, its result leads along the path to content
 * that admits the block (through arrays and unions), and the block has the field.
 */
export function buildContentMime(facts: SchemaFacts, table: ProtocolTable["contentMime"]): ContentMime | undefined {
  const results: Record<string, string[]> = {};
  const blocks = new Map<string, { type: string; rule: string }>();
  for (const [method, path] of Object.entries(table.results)) {
    const request = facts.request(method);
    if (!request) continue;
    let nodes: TypeNode[] = request.result ? [request.result] : [];
    for (const field of path)
      nodes = nodes.flatMap((n) => facts.field(n, field)).map((n) => (n.kind === "array" ? n.items : n));
    const admitted = new Set(nodes.flatMap((n) => facts.refs(n)));
    if (admitted.size === 0) throw new ModelError(`${where}: the ${method} result has no ${path.join(".")}`);
    const found = Object.entries(table.blocks).filter(([name]) => admitted.has(name));
    if (found.length === 0) continue;
    results[method] = path;
    for (const [name, rule] of found) {
      fieldOf(facts, name, table.field);
      blocks.set(name, { type: typeLiteral(facts, name), rule });
    }
  }
  if (blocks.size === 0) return undefined;
  return { field: table.field, results, blocks: [...blocks.values()] };
}

/**
 * Task-augmented requests keep their progress token until the task's terminal status: the
 * result field holding the created task, the task's id and status fields, the terminal statuses
 * (among the status type's literals), and the notification and results that report a task's status.
 */
export function buildTaskProgress(
  facts: SchemaFacts,
  table: ProtocolTable["taskProgress"],
  createResult: string | undefined,
): TaskProgress | undefined {
  const notification = facts.notification(table.notification);
  if (!createResult || !notification) return undefined;
  const created = facts.field({ kind: "ref", name: createResult }, table.created)[0];
  const status = facts.field(created, table.status)[0];
  if (!created || !status || facts.field(created, table.id).length === 0)
    throw new ModelError(`${where}: ${createResult}.${table.created} has no ${table.id} and ${table.status}`);
  const statuses = facts.literals(status);
  for (const terminal of table.terminal)
    if (!statuses.includes(terminal)) throw new ModelError(`${where}: task status admits no ${terminal}`);
  const carries = (node: TypeNode | undefined) =>
    facts.field(node, table.id).length > 0 && facts.field(node, table.status).length > 0;
  if (!carries(notification.params?.type))
    throw new ModelError(`${where}: ${table.notification} params have no ${table.id} and ${table.status}`);
  for (const method of table.results) {
    const request = facts.request(method);
    if (!request || !carries(request.result))
      throw new ModelError(`${where}: ${method} has no result with ${table.id} and ${table.status}`);
  }
  return {
    created: table.created,
    id: table.id,
    status: table.status,
    terminal: table.terminal,
    notification: table.notification,
    results: table.results,
  };
}

/** The capabilities' extensions map whose keys are extension identifiers, where the revision has one. */
export function buildExtensionIds(facts: SchemaFacts, table: ProtocolTable["extensionIds"]): ExtensionIds | undefined {
  const carrying = table.capabilities.filter((name) => facts.field({ kind: "ref", name }, table.field).length > 0);
  return carrying.length > 0 ? { field: table.field } : undefined;
}

/**
 * The kinds of result a client recognises, where results say their kind: the string literals of
 * the field's type (its open `| string` member admits no literal). Each kind another fact names
 * (the complete default, the input-required marker) must be one of them.
 */
export function buildResultTypes(
  facts: SchemaFacts,
  table: ProtocolTable["resultTypes"],
  named: readonly { field: string; value: LiteralValue }[],
): ResultTypes | undefined {
  const [type] = facts.field({ kind: "ref", name: table.type }, table.field);
  if (!type) return undefined;
  const values = facts.literals(type).filter((v): v is string => typeof v === "string");
  if (values.length === 0) throw new ModelError(`${where}: ${table.type}.${table.field} admits no string literal`);
  for (const { field, value } of named)
    if (field === table.field && (typeof value !== "string" || !values.includes(value)))
      throw new ModelError(`${where}: ${table.type}.${table.field} admits no ${JSON.stringify(value)}`);
  return { field: table.field, values };
}
