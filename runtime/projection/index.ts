// Serving clients of older revisions from handlers written once against a newer one: per-revision
// shape tables (generated/<rev>/projection.ts), the walker that projects values onto them, and
// the server that negotiates a revision per connection and converts what it sends; and, the other
// way, a client's values read as one revision's (view.ts).
export * from "./shapes.js";
export * from "./project.js";
export * from "./multi-revision.js";
export * from "./view.js";
export * from "./every-revision.js";
