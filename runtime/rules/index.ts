// Protocol rules beyond the schema (docs/protocol-rules.md): the checks generated clients and
// servers run, on the facts the model gives them.
export * from "./violation.js";
export * from "./facts.js";
export * from "./capabilities.js";
export * from "./sampling.js";
export * from "./roots.js";
export * from "./content-mime.js";
export * from "./url-elicitations.js";
export * from "./input-required.js";
export * from "./extension-ids.js";
export * from "./result-types.js";
export * from "./cache-scope.js";
export * from "./rule-book.js";
