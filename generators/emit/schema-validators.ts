// Validators for arbitrary JSON Schemas (a tool's inputSchema and outputSchema): each schema
// becomes model declarations (generators/parse/json-schema.ts) and goes through the same
// validator builder as the protocol's own types. Keywords no check exists for are returned,
// never dropped silently.
import { JsonSchemaError, jsonSchemaToModel, JSON_SCHEMA_CONVENTIONS } from "../parse/json-schema.js";
import type { Declaration } from "../model/model.js";
import { stringLiteral } from "./code.js";
import { renderTemplate } from "./render.js";
import { ValidatorBuilder } from "./validate/builder.js";

export interface NamedSchema {
  /** An identifier, unique among the schemas: the validator's name and key. */
  name: string;
  schema: unknown;
  /** The TypeScript type the validator narrows to (default `unknown`). */
  type?: string;
}

export interface SchemaValidators {
  /** The module's source, unformatted. */
  source: string;
  /** Keywords not checked, as "<name>: <keyword> at <pointer>". */
  unsupported: string[];
}

export interface SchemaValidatorParts {
  /** The code built: the support it inlines (schema-validators.hbs), or the code alone (tools.hbs). */
  builder: Pick<ValidatorBuilder, "supportView" | "codeView">;
  /** The types' table the templates place. */
  types: { name: string; key: string; type: string; nameLiteral: string; guard: string }[];
  /** As SchemaValidators.unsupported. */
  unsupported: string[];
  /** Keywords not checked, by schema name: "<keyword> at <pointer>", or "<keyword>". */
  unsupportedBySchema: Map<string, string[]>;
}

/** A schema no validator can be built for (see JsonSchemaError), with the name it was given. */
export class SchemaValidatorError extends JsonSchemaError {
  constructor(
    readonly schema: string,
    message: string,
  ) {
    super(message);
    this.name = "SchemaValidatorError";
  }
}

/** The validator code for the schemas, for a template that places it (as schema-validators.hbs does). */
export function schemaValidatorParts(schemas: readonly NamedSchema[]): SchemaValidatorParts {
  const declarations: Declaration[] = [];
  const unsupported: string[] = [];
  const bySchema = new Map<string, string[]>();
  const owned: { name: string; declarations: Declaration[] }[] = [];
  for (const { name, schema } of schemas) {
    const converted = convert(schema, name);
    declarations.push(...converted.declarations);
    owned.push({ name, declarations: converted.declarations });
    unsupported.push(...converted.unsupported.map((u) => `${name}: ${u}`));
    bySchema.set(name, [...converted.unsupported]);
  }
  let current: string[] = [];
  const builder = new ValidatorBuilder(
    { declarations, conventions: JSON_SCHEMA_CONVENTIONS },
    {
      unsupported: (what) => {
        unsupported.push(what);
        if (!current.includes(what)) current.push(what);
      },
    },
  );
  // One schema at a time, so what the builder cannot check is told to the schema it is in.
  for (const { name, declarations: own } of owned) {
    current = bySchema.get(name) as string[];
    builder.addDeclarations(own);
  }
  const entries = builder.entryGuards(schemas.map((s) => s.name));
  const types = schemas.map((s) => ({
    name: s.name,
    key: s.name,
    type: s.type ?? "unknown",
    nameLiteral: stringLiteral(s.name),
    guard: entries.get(s.name) as string,
  }));
  return { builder, types, unsupported, unsupportedBySchema: bySchema };
}

function convert(schema: unknown, name: string) {
  try {
    return jsonSchemaToModel(schema, name);
  } catch (error) {
    if (error instanceof JsonSchemaError) throw new SchemaValidatorError(name, error.message);
    throw error;
  }
}

export function schemaValidators(schemas: readonly NamedSchema[]): SchemaValidators {
  const { builder, types, unsupported } = schemaValidatorParts(schemas);
  return { source: renderTemplate("schema-validators", { ...builder.supportView(), types }), unsupported };
}
