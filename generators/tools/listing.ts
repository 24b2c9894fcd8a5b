// A server's tools and prompts as mcp-gen tools works on them: checked for the few facts the
// generator relies on, and put in one canonical form (tools and prompts sorted by name, object
// keys sorted) so a live listing, its saved copy and the copy inside a generated module give
// the same bytes.
import { InputError } from "../errors.js";
import { compareCodeUnits } from "./naming.js";

export type JsonObject = { [key: string]: unknown };

export interface ToolDefinition {
  name: string;
  description?: string;
  inputSchema: JsonObject;
  outputSchema?: JsonObject;
  [key: string]: unknown;
}

export interface PromptArgument {
  name: string;
  description?: string;
  required?: boolean;
  [key: string]: unknown;
}

export interface PromptDefinition {
  name: string;
  description?: string;
  arguments?: PromptArgument[];
  [key: string]: unknown;
}

export interface Listing {
  /** The server's `serverInfo`, when known. */
  server?: JsonObject;
  /** The protocol revision the listing was fetched with, when known. */
  protocolVersion?: string;
  tools: ToolDefinition[];
  prompts: PromptDefinition[];
}

/** Deeper JSON is refused: no real schema nests this far, and canonicalizing must not overflow the stack. */
const MAX_DEPTH = 512;

const isObject = (v: unknown): v is JsonObject => typeof v === "object" && v !== null && !Array.isArray(v);

/**
 * Checks and canonicalizes a listing: a saved listing (`--save`), or a `tools/list` result with,
 * optionally, a `prompts` array beside `tools` (as `prompts/list` returns it). `source` names
 * where it came from in error messages.
 */
export function normalizeListing(raw: unknown, source: string): Listing {
  const fail = (message: string): never => {
    throw new InputError(`${source}: ${message}`);
  };
  if (!isObject(raw)) fail("not a tools/list result (expected an object with a `tools` array)");
  const value = raw as JsonObject;
  if (!Array.isArray(value.tools)) fail("not a tools/list result (no `tools` array)");
  if (value.prompts !== undefined && !Array.isArray(value.prompts)) fail("`prompts` is not an array");
  if (value.server !== undefined && !isObject(value.server)) fail("`server` is not an object");
  if (value.protocolVersion !== undefined && typeof value.protocolVersion !== "string")
    fail("`protocolVersion` is not a string");

  const tools = (value.tools as unknown[]).map((tool, i) => {
    const at = `tools[${i}]${isObject(tool) && typeof tool.name === "string" ? ` (${JSON.stringify(tool.name)})` : ""}`;
    if (!isObject(tool)) return fail(`${at} is not an object`);
    if (typeof tool.name !== "string") return fail(`${at}: \`name\` is not a string`);
    if (!isObject(tool.inputSchema)) return fail(`${at}: \`inputSchema\` is not an object`);
    if (tool.outputSchema !== undefined && !isObject(tool.outputSchema))
      return fail(`${at}: \`outputSchema\` is not an object`);
    if (tool.description !== undefined && typeof tool.description !== "string")
      return fail(`${at}: \`description\` is not a string`);
    return canonical(tool, at, fail) as ToolDefinition;
  });
  const prompts = ((value.prompts ?? []) as unknown[]).map((prompt, i) => {
    const at = `prompts[${i}]${isObject(prompt) && typeof prompt.name === "string" ? ` (${JSON.stringify(prompt.name)})` : ""}`;
    if (!isObject(prompt)) return fail(`${at} is not an object`);
    if (typeof prompt.name !== "string") return fail(`${at}: \`name\` is not a string`);
    if (prompt.description !== undefined && typeof prompt.description !== "string")
      return fail(`${at}: \`description\` is not a string`);
    if (prompt.arguments !== undefined) {
      if (!Array.isArray(prompt.arguments)) return fail(`${at}: \`arguments\` is not an array`);
      const seen = new Set<string>();
      prompt.arguments.forEach((arg: unknown, j) => {
        if (!isObject(arg) || typeof arg.name !== "string")
          return fail(`${at}: arguments[${j}] has no string \`name\``);
        if (arg.required !== undefined && typeof arg.required !== "boolean")
          return fail(`${at}: arguments[${j}].required is not a boolean`);
        if (seen.has(arg.name)) return fail(`${at}: two arguments named ${JSON.stringify(arg.name)}`);
        seen.add(arg.name);
      });
    }
    return canonical(prompt, at, fail) as PromptDefinition;
  });
  unique(tools, "tools", fail);
  unique(prompts, "prompts", fail);
  return {
    ...(value.server !== undefined ? { server: canonical(value.server, "server", fail) as JsonObject } : {}),
    ...(value.protocolVersion !== undefined ? { protocolVersion: value.protocolVersion as string } : {}),
    tools: tools.sort((a, b) => compareCodeUnits(a.name, b.name)),
    prompts: prompts.sort((a, b) => compareCodeUnits(a.name, b.name)),
  };
}

function unique(items: { name: string }[], what: string, fail: (message: string) => never): void {
  const seen = new Set<string>();
  for (const { name } of items) {
    if (seen.has(name)) fail(`two ${what} named ${JSON.stringify(name)}`);
    seen.add(name);
  }
}

/** A copy with object keys sorted (arrays keep their order: `enum`, `required`, prompt arguments). */
function canonical(value: unknown, at: string, fail: (message: string) => never, depth = 0): unknown {
  if (depth > MAX_DEPTH) return fail(`${at}: nested more than ${MAX_DEPTH} levels deep`);
  if (Array.isArray(value)) return value.map((v) => canonical(v, at, fail, depth + 1));
  if (!isObject(value)) return value;
  const out: JsonObject = {};
  for (const key of Object.keys(value).sort(compareCodeUnits)) {
    // Defined as data, so a key such as "__proto__" stays a key.
    Object.defineProperty(out, key, {
      value: canonical(value[key], at, fail, depth + 1),
      enumerable: true,
      writable: true,
      configurable: true,
    });
  }
  return out;
}

/** The saved form (`--save`, and the copy inside a generated module). */
export function serializeListing(listing: Listing): string {
  return `${JSON.stringify(listing, null, 2)}\n`;
}
