// Validators for arbitrary JSON Schemas (a tool's inputSchema and outputSchema): each schema
// becomes model declarations (generators/parse/json-schema.ts) and goes through the same
// validator builder as the protocol's own types. Keywords no check exists for are returned,
// never dropped silently.
import { jsonSchemaToModel, JSON_SCHEMA_CONVENTIONS } from "../parse/json-schema.js";
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

export function schemaValidators(schemas: readonly NamedSchema[]): SchemaValidators {
  const declarations: Declaration[] = [];
  const unsupported: string[] = [];
  for (const { name, schema } of schemas) {
    const converted = jsonSchemaToModel(schema, name);
    declarations.push(...converted.declarations);
    unsupported.push(...converted.unsupported.map((u) => `${name}: ${u}`));
  }
  const builder = new ValidatorBuilder(
    { declarations, conventions: JSON_SCHEMA_CONVENTIONS },
    { unsupported: (what) => unsupported.push(what) },
  );
  builder.addDeclarations();
  const source = renderTemplate("schema-validators", {
    ...builder.supportView(),
    types: schemas.map((s) => ({ name: s.name, key: s.name, type: s.type ?? "unknown", nameLiteral: stringLiteral(s.name) })),
  });
  return { source, unsupported };
}
