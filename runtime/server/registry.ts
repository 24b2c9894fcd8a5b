// The registry behind every generated `createMcpServer`: tools, resources, resource templates and
// prompts kept in registration order, and the answers to the requests that serve them (listing
// in pages, calling a tool with its arguments checked before and its structured content after,
// reading a resource by URI or template, getting a prompt, completing an argument). What differs
// between revisions (pagination fields, which error a failed check is, multi round-trip results,
// cache fields) comes in the profile the generated code builds from the model; the runtime
// names no revision. Change listeners hear which list changed, once per burst of registrations.
import { HandlerError, RpcError } from "../jsonrpc.js";
import { InMemoryChangeEventBus, type ChangeEventBus } from "../scale/change-events.js";
import { Catalog } from "./catalog.js";
import { compileSchema, describeIssues, type CompiledSchema, type Schema, type Verdict } from "./schema.js";
import { UriTemplate } from "./uri-template.js";

export type ListKind = "tools" | "resources" | "prompts";
type Json = { [key: string]: unknown };
type Awaitable<T> = T | Promise<T>;

export interface RegistryProfile {
  /** The cursor field of list requests and the next-cursor field of their results. */
  readonly pagination: { readonly cursor: string; readonly next: string };
  /** Tool arguments failing the input schema: a tool result with `isError`, or `invalidParams`. */
  readonly toolArguments: "toolResult" | "invalidParams";
  readonly invalidParams: number;
  readonly resourceNotFound: number;
  /** The marker of a multi round-trip result, which is passed on unchecked. */
  readonly inputRequired?: { readonly field: string; readonly value: unknown };
  /** The cache fields of list and read results, and their values where nothing else is said. */
  readonly caching?: { readonly defaults: Json };
  /** Whether structured content must be an object (output schemas of type "object"). */
  readonly structuredObject: boolean;
}

export interface RegistryOptions {
  /** Items per page of every list (default 100). */
  readonly pageSize?: number | undefined;
  /** Cache fields for list and read results, where the revision has them. */
  readonly cache?: Json | undefined;
  /** The change-event bus of several processes (default: the shared registry's, else one of this process). */
  readonly events?: ChangeEventBus | undefined;
}

/** Completion of one argument or template variable: the values for what was typed so far. */
export type Completer = (
  value: string,
  args: { readonly [name: string]: string | undefined },
) => Awaitable<readonly string[]>;

interface Tool {
  /** The registry that added it for its revision alone; undefined when every sharing registry serves it. */
  readonly owner?: Registry | undefined;
  readonly listing: Json;
  readonly input: CompiledSchema;
  readonly output: CompiledSchema | undefined;
  readonly handler: (args: unknown, context: unknown) => unknown;
}
interface Resource {
  /** The registry that added it for its revision alone; undefined when every sharing registry serves it. */
  readonly owner?: Registry | undefined;
  readonly listing: Json;
  readonly cache: Json | undefined;
  readonly read: (uri: string, context: unknown) => unknown;
}
interface Template {
  /** The registry that added it for its revision alone; undefined when every sharing registry serves it. */
  readonly owner?: Registry | undefined;
  readonly listing: Json;
  readonly template: UriTemplate;
  readonly cache: Json | undefined;
  readonly complete: { readonly [name: string]: Completer } | undefined;
  readonly read: (uri: string, variables: Json, context: unknown) => unknown;
}
interface Prompt {
  /** The registry that added it for its revision alone; undefined when every sharing registry serves it. */
  readonly owner?: Registry | undefined;
  readonly listing: Json;
  readonly args: CompiledSchema | undefined;
  readonly complete: { readonly [name: string]: Completer } | undefined;
  readonly handler: (args: unknown, context: unknown) => unknown;
}

/** The most values one completion answer carries. */
const MAX_COMPLETIONS = 100;
const EMPTY_OBJECT_SCHEMA = { type: "object", properties: {} };

const isObject = (value: unknown): value is Json =>
  typeof value === "object" && value !== null && !Array.isArray(value);
const then = <T, R>(value: Awaitable<T>, next: (value: T) => R): Awaitable<Awaited<R>> =>
  (value instanceof Promise ? value.then(next) : next(value)) as Awaitable<Awaited<R>>;

/** Runs one handler: `run` calls it with the context it is given (runtime/projection adapts contexts). */
export type Invoke = (run: (context: unknown) => unknown, context: unknown) => unknown;

/**
 * Another registry's registrations, served by this one at its own revision (its profile): the
 * same entries and change listeners, each of their handlers run through `invoke`. What is
 * registered on this one is served by this one alone, its handlers run as they are.
 */
export interface SharedRegistrations {
  readonly registry: Registry;
  readonly invoke: Invoke;
}

/** Where a generated server keeps its registry, for a server of another revision to share (runtime/projection). */
export const REGISTRY: unique symbol = Symbol.for("mcp-gen.registry");

export class Registry {
  private readonly tools: Catalog<Tool>;
  private readonly resources: Catalog<Resource>;
  private readonly templates: Catalog<Template>;
  private readonly prompts: Catalog<Prompt>;
  private readonly listeners: Set<(kind: ListKind) => void>;
  private readonly changed: Set<ListKind>;
  private readonly pageSize: number;
  private readonly invoke: Invoke;
  /** What entries added here are marked with: this registry when it shares another's, else none. */
  private readonly owner: Registry | undefined;
  /**
   * Where the servers on these registrations publish `notify` and `resourceUpdated`, and hear
   * them: so each change reaches the clients of every revision served.
   */
  readonly events: ChangeEventBus;

  private readonly profile: RegistryProfile;
  private readonly options: RegistryOptions;

  /** `shared`: serve another registry's registrations too. */
  constructor(profile: RegistryProfile, options: RegistryOptions = {}, shared?: SharedRegistrations) {
    this.profile = profile;
    this.options = options;
    this.pageSize = options.pageSize ?? 100;
    if (!(this.pageSize >= 1)) throw new RangeError("pageSize must be at least 1");
    const from = shared?.registry;
    this.tools = from?.tools ?? new Catalog<Tool>("tool");
    this.resources = from?.resources ?? new Catalog<Resource>("resource");
    this.templates = from?.templates ?? new Catalog<Template>("resource template");
    this.prompts = from?.prompts ?? new Catalog<Prompt>("prompt");
    this.listeners = from?.listeners ?? new Set();
    this.changed = from?.changed ?? new Set();
    this.invoke = shared?.invoke ?? ((run, context) => run(context));
    this.owner = from ? this : undefined;
    this.events = options.events ?? from?.events ?? new InMemoryChangeEventBus();
  }

  /** Whether this registry serves an entry: its own, or one every sharing registry serves. */
  private readonly sees = (entry: { readonly owner?: Registry | undefined }): boolean =>
    entry.owner === undefined || entry.owner === this;

  /** Runs an entry's handler: through `invoke` when it was written for the registry shared. */
  private run(entry: { readonly owner?: Registry | undefined }, run: (context: unknown) => unknown, context: unknown) {
    return entry.owner === undefined ? this.invoke(run, context) : run(context);
  }

  /** What is registered now, by kind. */
  has(kind: ListKind | "completions"): boolean {
    if (kind === "resources") return this.resources.some(this.sees) || this.templates.some(this.sees);
    if (kind === "completions") return this.prompts.some(this.sees) || this.templates.some(this.sees);
    return this[kind].some(this.sees);
  }

  /** Hears which list changed; several changes in one turn of the event loop are heard once. */
  onChange(listener: (kind: ListKind) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  private change(kind: ListKind): void {
    if (this.changed.size === 0)
      void Promise.resolve().then(() => {
        const kinds = [...this.changed];
        this.changed.clear();
        for (const k of kinds) for (const listener of this.listeners) listener(k);
      });
    this.changed.add(kind);
  }

  private removal(kind: ListKind, remove: () => boolean): () => void {
    this.change(kind);
    return () => {
      if (remove()) this.change(kind);
    };
  }

  /** `config`: the tool's listing fields, with `inputSchema` and `outputSchema` as schemas. */
  addTool(name: string, config: object, handler: Tool["handler"]): () => void {
    const { inputSchema, outputSchema, ...metadata } = config as { inputSchema?: Schema; outputSchema?: Schema };
    const input = compileSchema(inputSchema ?? EMPTY_OBJECT_SCHEMA, "input", `tool ${name} inputSchema`);
    if (input.json["type"] !== "object") throw new TypeError(`tool ${name}: inputSchema must be of type "object"`);
    const output = outputSchema && compileSchema(outputSchema, "output", `tool ${name} outputSchema`);
    if (output && this.profile.structuredObject && output.json["type"] !== "object")
      throw new TypeError(`tool ${name}: outputSchema must be of type "object" at this revision`);
    const listing: Json = {
      name,
      ...metadata,
      inputSchema: input.json,
      ...(output ? { outputSchema: output.json } : {}),
    };
    return this.removal("tools", this.tools.add(name, { listing, input, output, handler, owner: this.owner }));
  }

  /**
   * A resource at `uri`, or, when `uri` is an RFC 6570 template, at every URI it matches.
   * `config`: the listing fields, with the registry's own `cache` (result cache fields) and, for
   * a template, `complete` (completers by variable). `read` gets the template's values (none for a URI).
   */
  addResource(name: string, uri: string, config: object, read: Template["read"]): () => void {
    const { cache, complete, ...metadata } = config as { cache?: Json; complete?: Template["complete"] };
    if (!UriTemplate.isTemplate(uri)) {
      const entry = {
        owner: this.owner,
        listing: { name, uri, ...metadata },
        cache,
        read: (at: string, context: unknown) => read(at, {}, context),
      };
      return this.removal("resources", this.resources.add(uri, entry));
    }
    const template = new UriTemplate(uri);
    for (const variable of Object.keys(complete ?? {}))
      if (!template.variables.includes(variable))
        throw new TypeError(`resource template ${uri}: no variable ${variable} to complete`);
    const entry = {
      owner: this.owner,
      listing: { name, uriTemplate: uri, ...metadata },
      template,
      cache,
      complete,
      read,
    };
    return this.removal("resources", this.templates.add(uri, entry));
  }

  /** `config`: the prompt's listing fields, with `argsSchema` as a schema and its `complete` map. */
  addPrompt(name: string, config: object, handler: Prompt["handler"]): () => void {
    const { argsSchema, complete, ...metadata } = config as { argsSchema?: Schema; complete?: Prompt["complete"] };
    const args = argsSchema && compileSchema(argsSchema, "input", `prompt ${name} argsSchema`);
    const listing: Json = { name, ...metadata, ...(args ? { arguments: promptArguments(name, args.json) } : {}) };
    for (const arg of Object.keys(complete ?? {}))
      if (!args || !isObject(args.json["properties"]) || !(arg in args.json["properties"]))
        throw new TypeError(`prompt ${name}: no argument ${arg} to complete`);
    return this.removal("prompts", this.prompts.add(name, { listing, args, complete, handler, owner: this.owner }));
  }

  private list<T extends { listing: Json; owner?: Registry | undefined }>(
    catalog: Catalog<T>,
    field: string,
    params: object | undefined,
  ): Json {
    const { cursor, next } = this.profile.pagination;
    const at = (params as Json | undefined)?.[cursor];
    let page: { items: T[]; next?: string };
    try {
      page = catalog.page(typeof at === "string" ? at : undefined, this.pageSize, this.sees);
    } catch {
      throw new RpcError(this.profile.invalidParams, "Invalid cursor");
    }
    const result: Json = { ...this.cacheFields(undefined), [field]: page.items.map((item) => item.listing) };
    if (page.next !== undefined) result[next] = page.next;
    return result;
  }

  private cacheFields(own: Json | undefined): Json {
    const caching = this.profile.caching;
    return caching ? { ...caching.defaults, ...this.options.cache, ...own } : {};
  }

  listTools(params: object | undefined): Json {
    return this.list(this.tools, "tools", params);
  }

  listResources(params: object | undefined): Json {
    return this.list(this.resources, "resources", params);
  }

  listResourceTemplates(params: object | undefined): Json {
    return this.list(this.templates, "resourceTemplates", params);
  }

  listPrompts(params: object | undefined): Json {
    return this.list(this.prompts, "prompts", params);
  }

  /** Arguments checked, the handler run, its result checked against the output schema. */
  callTool(params: object, context: unknown): Awaitable<unknown> {
    const { name, arguments: args } = params as { name: string; arguments?: unknown };
    const tool = this.tools.get(name, this.sees);
    if (!tool) throw new RpcError(this.profile.invalidParams, `Unknown tool: ${name}`);
    return then(tool.input.check(args ?? {}), (verdict) => this.runTool(name, tool, verdict, context));
  }

  private runTool(name: string, tool: Tool, verdict: Verdict, context: unknown): Awaitable<unknown> {
    if (!verdict.ok) {
      const message = `Invalid arguments for tool ${name}: ${describeIssues(verdict.issues)}`;
      if (this.profile.toolArguments === "toolResult")
        return { isError: true, content: [{ type: "text", text: message }] };
      throw new RpcError(this.profile.invalidParams, message, { issues: verdict.issues });
    }
    let result: unknown;
    try {
      result = this.run(tool, (c) => tool.handler(verdict.value, c), context);
    } catch (error) {
      return toolError(error);
    }
    return result instanceof Promise
      ? result.then((r) => this.finishTool(name, tool, r), toolError)
      : this.finishTool(name, tool, result);
  }

  /** The handler's result checked and completed; a wrong one is the server's fault (HandlerError, -32603). */
  private finishTool(name: string, tool: Tool, result: unknown): Awaitable<unknown> {
    if (!isObject(result)) {
      const got = result === null ? "null" : Array.isArray(result) ? "array" : typeof result;
      const issue = { path: "", expected: "object", message: `expected object, got ${got}` };
      throw HandlerError.invalid("tools/call", { name }, result, [issue]);
    }
    const ir = this.profile.inputRequired;
    if (ir && result[ir.field] === ir.value) return result;
    if (!tool.output || result["isError"] === true) return withContent(result);
    const structured = result["structuredContent"];
    if (structured === undefined)
      throw new HandlerError(`Tool ${name} has an outputSchema but returned no structuredContent`);
    return then(tool.output.check(structured), (verdict) => {
      if (!verdict.ok)
        throw new HandlerError(
          `Tool ${name} returned structuredContent that does not match its outputSchema: ${describeIssues(verdict.issues)}`,
          { data: { issues: verdict.issues } },
        );
      return withContent({ ...result, structuredContent: verdict.value });
    });
  }

  /** By URI first, then the templates in registration order: the first that matches reads it. */
  readResource(params: object, context: unknown): Awaitable<unknown> {
    const { uri } = params as { uri: string };
    const resource = this.resources.get(uri, this.sees);
    if (resource)
      return then(
        this.run(resource, (c) => resource.read(uri, c), context),
        (result) => this.withCache(result, resource.cache),
      );
    for (const template of this.templates.values(this.sees)) {
      const variables = template.template.match(uri);
      if (variables)
        return then(
          this.run(template, (c) => template.read(uri, variables, c), context),
          (result) => this.withCache(result, template.cache),
        );
    }
    throw new RpcError(this.profile.resourceNotFound, `Resource not found: ${uri}`, { uri });
  }

  private withCache(result: unknown, own: Json | undefined): unknown {
    const ir = this.profile.inputRequired;
    if (!this.profile.caching || !isObject(result) || (ir && result[ir.field] === ir.value)) return result;
    return { ...this.cacheFields(own), ...result };
  }

  getPrompt(params: object, context: unknown): Awaitable<unknown> {
    const { name, arguments: given } = params as { name: string; arguments?: unknown };
    const prompt = this.prompts.get(name, this.sees);
    if (!prompt) throw new RpcError(this.profile.invalidParams, `Unknown prompt: ${name}`);
    const args = given ?? {};
    if (!prompt.args) return this.run(prompt, (c) => prompt.handler(args, c), context);
    return then(prompt.args.check(args), (verdict) => {
      if (!verdict.ok)
        throw new RpcError(
          this.profile.invalidParams,
          `Invalid arguments for prompt ${name}: ${describeIssues(verdict.issues)}`,
          { issues: verdict.issues },
        );
      return this.run(prompt, (c) => prompt.handler(verdict.value, c), context);
    });
  }

  /** A prompt argument or a template variable, completed by the completer registered for it. */
  complete(params: object): Awaitable<unknown> {
    const { ref, argument, context } = params as {
      ref: Json;
      argument: { name: string; value: string };
      context?: { arguments?: { [name: string]: string } };
    };
    let completers: { readonly [name: string]: Completer } | undefined;
    if (ref["type"] === "ref/prompt") {
      const prompt = this.prompts.get(ref["name"] as string, this.sees);
      if (!prompt) throw new RpcError(this.profile.invalidParams, `Unknown prompt: ${String(ref["name"])}`);
      completers = prompt.complete;
    } else {
      const uri = ref["uri"] as string;
      const template = this.templates.get(uri, this.sees);
      if (!template && !this.resources.get(uri, this.sees))
        throw new RpcError(this.profile.invalidParams, `Unknown resource template: ${uri}`);
      completers = template?.complete;
    }
    const completer = completers?.[argument.name];
    if (!completer) return { completion: { values: [], total: 0, hasMore: false } };
    return then(completer(argument.value, context?.arguments ?? {}), (values) => ({
      completion: {
        values: values.slice(0, MAX_COMPLETIONS),
        total: values.length,
        hasMore: values.length > MAX_COMPLETIONS,
      },
    }));
  }
}

/** A result without `content` gets its structured content as JSON text (or none), as the spec advises. */
function withContent(result: Json): Json {
  if (result["content"] !== undefined) return result;
  const structured = result["structuredContent"];
  return {
    ...result,
    content: structured === undefined ? [] : [{ type: "text", text: JSON.stringify(structured) }],
  };
}

/** An error a tool handler throws is the tool's error, for the model to see; an RpcError stays a protocol error. */
function toolError(error: unknown): Json {
  if (error instanceof RpcError) throw error;
  const message = error instanceof Error ? error.message : String(error);
  return { isError: true, content: [{ type: "text", text: message }] };
}

/** A prompt's `arguments` listing from its schema: every property a string argument. */
function promptArguments(name: string, json: Json): Json[] {
  const properties = json["properties"];
  if (json["type"] !== "object" || !isObject(properties))
    throw new TypeError(`prompt ${name}: argsSchema must be an object schema with properties`);
  const required = Array.isArray(json["required"]) ? (json["required"] as unknown[]) : [];
  return Object.entries(properties).map(([arg, schema]) => {
    const s = isObject(schema) ? schema : {};
    return {
      name: arg,
      ...(typeof s["title"] === "string" ? { title: s["title"] } : {}),
      ...(typeof s["description"] === "string" ? { description: s["description"] } : {}),
      required: required.includes(arg),
    };
  });
}
