// A listing → one TypeScript module (templates/tools.hbs): types from json-schema-to-typescript,
// run-time checks from the project's validator builder, typed wrappers, and the listing itself
// (for `--check`). What is not specific to the server, the wrappers' shared code and the support
// the checks call, it imports from the runtime (runtime.ts). Same listing and runtime, same bytes.
import { GENERATED_BY, LINT_DISABLE } from "../emit/banner.js";
import { docComment, stringLiteral } from "../emit/code.js";
import { formatTypeScript, renderTemplate } from "../emit/render.js";
import { SchemaValidatorError, schemaValidatorParts, type NamedSchema } from "../emit/schema-validators.js";
import { supportImports } from "../emit/validate/support-imports.js";
import { InputError } from "../errors.js";
import { serializeListing, type JsonObject, type Listing, type ToolDefinition } from "./listing.js";
import { identifiers } from "./naming.js";
import { DEFAULT_RUNTIME, runtimeSpecifiers } from "./runtime.js";
import { argumentSchema, docText, flattened, promptArgumentsSchema } from "./schemas.js";
import { typeDeclarations } from "./types.js";

export interface ToolsModule {
  /** The formatted module. */
  source: string;
  /** What its checks cannot enforce, one line each: `tool "x" arguments: format "email"`. */
  unchecked: string[];
}

/** Marks the listing at the end of a generated module. */
export const LISTING_MARKER = "/* mcp-gen tools listing: what this module was generated from (read by --check)";

/** One schema of the module: whose it is, its type's name, and the schema itself. */
interface Part {
  owner: string;
  role: "arguments" | "structured result";
  root: string;
  schema: JsonObject;
  /** The first part with an equal schema, whose type and validator this one shares. */
  sameAs?: Part;
}

/** The module for `listing`, to be written at `file`, importing from `runtime` (see runtime.ts). */
export async function emitToolsModule(
  listing: Listing,
  file: string,
  runtime: string = DEFAULT_RUNTIME,
): Promise<ToolsModule> {
  const parts = new SchemaParts();
  const toolIds = identifiers(
    listing.tools.map((t) => t.name),
    "Tool",
  );
  const tools = listing.tools.map((tool, i) => {
    const id = toolIds[i] as (typeof toolIds)[number];
    const owner = `tool ${quoted(tool.name)}`;
    const input = argumentSchema(tool.inputSchema);
    const inputPart = parts.add({ owner, role: "arguments", root: `${id.pascal}Input`, schema: input });
    const outputPart = tool.outputSchema
      ? parts.add({ owner, role: "structured result", root: `${id.pascal}Output`, schema: tool.outputSchema })
      : undefined;
    return {
      method: id.method,
      nameLiteral: stringLiteral(tool.name),
      doc: docComment([`Calls ${called(tool.name, tool.title)}.`, ...lines(tool.description), ...taskOnly(tool)]),
      input: inputPart.root,
      inputValidator: validatorOf(inputPart),
      output: outputPart?.root ?? "unknown",
      outputValidator: outputPart ? `validators.${validatorOf(outputPart)}` : "undefined",
      optionalArgs: acceptsNoArguments(input),
    };
  });
  const promptIds = identifiers(
    listing.prompts.map((p) => p.name),
    "Prompt",
  );
  const prompts = listing.prompts.map((prompt, i) => {
    const id = promptIds[i] as (typeof promptIds)[number];
    const schema = promptArgumentsSchema(prompt);
    const part = parts.add({
      owner: `prompt ${quoted(prompt.name)}`,
      role: "arguments",
      root: `${id.pascal}Arguments`,
      schema,
    });
    return {
      method: id.method,
      nameLiteral: stringLiteral(prompt.name),
      doc: docComment([`Gets ${called(prompt.name, prompt.title)}.`, ...lines(prompt.description)]),
      input: part.root,
      inputValidator: validatorOf(part),
      optionalArgs: acceptsNoArguments(schema),
    };
  });

  const types: string[] = [];
  const interfaces = new Set<string>();
  for (const part of parts.all) {
    if (part.sameAs) {
      // An interface of its own where possible, so compiler messages name this tool's type.
      const shared = part.sameAs.root;
      types.push(
        interfaces.has(shared)
          ? `export interface ${part.root} extends ${shared} {}`
          : `export type ${part.root} = ${shared};`,
      );
      continue;
    }
    try {
      const declared = await typeDeclarations(part.root, part.schema);
      if (declared.startsWith(`export interface ${part.root} `)) interfaces.add(part.root);
      types.push(declared);
    } catch (error) {
      throw new InputError(`${part.owner}: its ${part.role} schema cannot be typed: ${oneLine(error)}`);
    }
  }
  const { builder, types: table, unsupportedBySchema } = validatorParts(parts.distinct());
  const unchecked = parts.all.flatMap((p) =>
    (unsupportedBySchema.get(validatorOf(p)) ?? []).map((what) => `${p.owner} ${p.role}: ${what}`),
  );
  const specifiers = runtimeSpecifiers(runtime);
  const view = {
    ...builder.codeView(),
    types: table,
    header: header(listing, unchecked),
    // The printed checks leave parameters unused and test constant conditions, which ESLint's
    // recommended rules report.
    lintDisable: LINT_DISABLE,
    runtime: { tools: stringLiteral(specifiers.tools), validation: stringLiteral(specifiers.validation) },
    tools,
    prompts,
  };
  // What it imports of the support is what its code refers to; its types and listing refer to none of it.
  const code = renderTemplate("tools", {
    ...view,
    support: { imported: "", exported: "" },
    declarations: "",
    listing: "",
  });
  const support = supportImports(code);
  const source = renderTemplate("tools", {
    ...view,
    support: { imported: support.imported.join(", "), exported: support.exported.join(", ") },
    declarations: types.join("\n\n"),
    listing: `${LISTING_MARKER}\n${serializeListing(listing).replace(/\*\//g, "*\\/")}*/`,
  });
  return { source: await formatTypeScript(source, file), unchecked };
}

/**
 * The module's schemas, each prepared once (flattened: see schemas.ts). Equal schemas share one
 * validator and one type (the others are aliases of it): servers repeat shapes, often for every
 * tool's result, and each validator is a few dozen lines.
 */
class SchemaParts {
  readonly all: Part[] = [];
  private readonly byText = new Map<string, Part>();

  add(part: Omit<Part, "sameAs">): Part {
    const schema = flattened(part.schema);
    const text = JSON.stringify(schema);
    const first = this.byText.get(text);
    const added: Part = { ...part, schema, ...(first ? { sameAs: first } : {}) };
    if (!first) this.byText.set(text, added);
    this.all.push(added);
    return added;
  }

  distinct(): Part[] {
    return this.all.filter((p) => !p.sameAs);
  }
}

const validatorOf = (part: Part) => (part.sameAs ?? part).root;

function validatorParts(parts: Part[]) {
  const schemas: NamedSchema[] = parts.map((p) => ({ name: p.root, schema: p.schema, type: p.root }));
  try {
    return schemaValidatorParts(schemas);
  } catch (error) {
    if (!(error instanceof SchemaValidatorError)) throw error;
    const part = parts.find((p) => p.root === error.schema) as Part;
    throw new InputError(`${part.owner}: its ${part.role} schema cannot be checked: ${error.message}`);
  }
}

/** Whether the wrapper's argument can be left out: an object schema that requires nothing. */
function acceptsNoArguments(schema: JsonObject): boolean {
  const combined = ["allOf", "anyOf", "oneOf", "$ref", "if", "not"].some((k) => schema[k] !== undefined);
  const objectOnly = schema.type === undefined || schema.type === "object";
  const required = Array.isArray(schema.required) ? schema.required.length : 0;
  return objectOnly && !combined && required === 0;
}

function header(listing: Listing, unchecked: string[]): string[] {
  const server = listing.server;
  const named =
    server && typeof server.name === "string"
      ? `${quoted(server.name)}${typeof server.version === "string" ? ` ${commentSafe(server.version)}` : ""}`
      : "an MCP server";
  const revision = listing.protocolVersion ? `, protocol revision ${commentSafe(listing.protocolVersion)}` : "";
  const count = (n: number, what: string) => `${n} ${what}${n === 1 ? "" : "s"}`;
  return [
    `${GENERATED_BY} tools; do not edit.`,
    `Typed wrappers for the tools and prompts of ${named}${revision}:`,
    `${count(listing.tools.length, "tool")}, ${count(listing.prompts.length, "prompt")}.`,
    "Regenerate with `mcp-gen tools`; `mcp-gen tools … --check <this file>` reports what changed on the server.",
    "",
    ...(unchecked.length === 0
      ? ["Every JSON Schema keyword of these tools and prompts is checked at run time."]
      : ["JSON Schema keywords the run-time checks do not enforce:", ...unchecked.map((u) => `- ${commentSafe(u)}`)]),
  ];
}

/** A name as a string literal, safe inside a `//` comment (no line terminators). */
function quoted(text: string): string {
  return commentSafe(JSON.stringify(text));
}

/** U+2028 and U+2029 end a `//` comment; JSON.stringify leaves them as they are. */
function commentSafe(text: string): string {
  return text.replace(/[\n\r\u2028\u2029]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, "0")}`);
}

/** `"get-weather" (Weather)`: the name as sent, and the title people see where there is one. */
function called(name: string, title: unknown): string {
  return typeof title === "string" ? `${quoted(name)} (${commentSafe(docText(title))})` : quoted(name);
}

/** A tool that runs only as a task refuses the plain call these wrappers make: say so where it is called. */
function taskOnly(tool: ToolDefinition): string[] {
  const execution = tool.execution as { taskSupport?: unknown } | undefined;
  return execution?.taskSupport === "required"
    ? ['Runs only as a task (execution.taskSupport "required"): the server refuses plain calls.']
    : [];
}

function lines(text: unknown): string[] {
  return typeof text === "string" ? docText(text).split(/\r\n|[\n\r\u2028\u2029]/) : [];
}

function oneLine(error: unknown): string {
  return (error instanceof Error ? error.message : String(error)).split("\n")[0] as string;
}
