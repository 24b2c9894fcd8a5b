// The runtime that generated clients and servers import. No dependencies; stdio lives in
// ./stdio.js because it needs Node's child_process.
export * from "./jsonrpc.js";
export * from "./transport.js";
export * from "./peer.js";
export * from "./capabilities.js";
export * from "./in-memory.js";
export * from "./request-state.js";
export type { AuthInfo, MessageExtra } from "./auth/auth-info.js";
export * from "./response-cache.js";
export * from "./rules/index.js";
export * from "./scale/index.js";
