// TypeScript declarations for one JSON Schema, by json-schema-to-typescript. Each schema is
// compiled on its own, so an error names its tool; the names it declares are the root name
// given and `<root>$<Definition>` for its `$defs`, which no other schema's names can equal
// (root names have no `$`, see naming.ts).
import { compile, type Options } from "json-schema-to-typescript";
import type { JsonObject } from "./listing.js";
import { typingSchema } from "./schemas.js";

const OPTIONS: Partial<Options> = {
  bannerComment: "",
  // The whole module is formatted once, with the project's prettier settings.
  format: false,
  unknownAny: true,
  // Only references inside the schema itself (typingSchema removed any other).
  $refOptions: { resolve: { external: false } } as Options["$refOptions"],
};

/**
 * `export interface <root> …` (or `export type <root> = …`) and the declarations it needs.
 * Throws with the compiler's message when the schema cannot be typed.
 */
export async function typeDeclarations(root: string, schema: JsonObject): Promise<string> {
  const source = await compile(typingSchema(schema) as Parameters<typeof compile>[0], root, {
    ...OPTIONS,
    customName: (_schema, definition) => (definition === undefined ? undefined : `${root}$${definition}`),
  });
  // The root is named by the schema's `title` or `$id` when it has one; both were removed, so a
  // missing root would be a change in json-schema-to-typescript, not in the input.
  if (!new RegExp(`^export (interface|type) ${root}\\b`, "m").test(source)) {
    throw new Error(`json-schema-to-typescript did not declare ${root}`);
  }
  return source.trim();
}
