// The server side of the runtime, the same for every revision: the server every generated
// `createServer` types (protocol-server.ts), the registry of tools, resources and prompts from
// schemas (registry.ts and its helpers) and the server every generated `createMcpServer` types
// around it (mcp-server.ts).
export * from "./protocol-server.js";
export * from "./mcp-server.js";
export * from "./registry.js";
export * from "./schema.js";
export * from "./uri-template.js";
export type * from "./json-schema.js";
export type * from "./standard-schema.js";
