// Serving clients of older revisions from handlers written once against a newer one: per-revision
// shape tables (generated/<rev>/projection.ts), the walker that projects values onto them, and
// the server that negotiates a revision per connection and converts what it sends.
export * from "./shapes.js";
export * from "./project.js";
export * from "./multi-revision.js";
