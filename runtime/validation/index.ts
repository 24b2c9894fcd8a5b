// @mcp-gen/runtime/validation: the support the validators of `mcp-gen tools` modules import (a
// generated validators.ts inlines the same code instead): Validator, ValidationError and the issue
// list, the trail and the explaining pass, the helpers and the format checks.
export * from "./support.js";
export * from "./helpers.js";
export * from "./formats.js";
