// The registry layer of generated servers (tools, resources, prompts from schemas): the shared,
// revision-free part that every generated `registry.ts` builds on.
export * from "./registry.js";
export * from "./schema.js";
export * from "./uri-template.js";
export type * from "./json-schema.js";
export type * from "./standard-schema.js";
