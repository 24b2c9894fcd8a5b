// What the nodes of one MCP service share when it runs on more than one process or machine:
// change events (a list_changed or resources/updated published on one node reaches the clients
// listening on every node), the events of 2025-era resumable streams (so a node other than the one
// that wrote them can replay them after Last-Event-ID) and 2025-era session ownership (which node
// holds a session's server, so any node can route a request to it). Interfaces only, with
// in-memory implementations that are today's one-process behaviour; a shared implementation
// (Redis: @mcp-gen/runtime/redis, outside the vendored runtime) plugs into the same options.
// No dependencies, no Node types: vendored code compiles without @types/node.
export * from "./change-events.js";
export * from "./event-store.js";
export * from "./session-directory.js";
