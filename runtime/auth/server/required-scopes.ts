// Server side of scopes: which scopes a POST needs (those of every request, of its JSON-RPC
// method, and of the tool a `tools/call` names in its body), and which of them a token lacks,
// counting the scopes its granted ones imply (a broader scope implies narrower ones, as the
// authorization page asks servers to account for).
// Spec: https://modelcontextprotocol.io/specification/2026-07-28/basic/authorization#scope-challenge-handling
import { isObject } from "../../jsonrpc.js";

/**
 * The request that calls a tool, and the params field naming it: the same in every revision
 * (test/auth-server-units.test.ts checks each model).
 */
export const TOOL_CALL = { method: "tools/call", nameField: "name" } as const;

export interface ScopeRules {
  /** Scopes every request needs. */
  readonly requiredScopes?: readonly string[] | undefined;
  /** Scopes a JSON-RPC method needs besides those, e.g. { "resources/read": ["files:read"] }. */
  readonly methodScopes?: { readonly [method: string]: readonly string[] } | undefined;
  /** Scopes calling a tool needs besides those, by tool name. */
  readonly toolScopes?: { readonly [tool: string]: readonly string[] } | undefined;
  /** Scopes a granted scope implies, e.g. { "files:write": ["files:read"] }; followed transitively. */
  readonly impliedScopes?: { readonly [scope: string]: readonly string[] } | undefined;
}

/** scope-token of RFC 6749 §3.3: no spaces, quotes or backslashes, so it fits a challenge as it is. */
const SCOPE_TOKEN = /^[\x21\x23-\x5b\x5d-\x7e]+$/;

/** Throws on a scope that cannot be one, so that a typo fails at start, not in a challenge. */
export function checkScopes(rules: ScopeRules): void {
  const lists = [
    rules.requiredScopes ?? [],
    ...Object.values(rules.methodScopes ?? {}),
    ...Object.values(rules.toolScopes ?? {}),
    ...Object.entries(rules.impliedScopes ?? {}).map(([scope, implied]) => [scope, ...implied]),
  ];
  for (const list of lists)
    for (const scope of list)
      if (!SCOPE_TOKEN.test(scope)) throw new TypeError(`not a scope: ${JSON.stringify(scope)}`);
}

/** Own properties only: a method named "constructor" or "__proto__" must find nothing. */
function lookup(table: { readonly [key: string]: readonly string[] } | undefined, key: string): readonly string[] {
  return table && Object.hasOwn(table, key) ? (table[key] ?? []) : [];
}

/** The scopes the messages of one POST need, in a stable order, each once. */
export function requiredScopes(rules: ScopeRules, messages: readonly unknown[]): string[] {
  const needed = new Set(rules.requiredScopes ?? []);
  for (const message of messages) {
    if (!isObject(message) || typeof message["method"] !== "string") continue;
    const method = message["method"];
    for (const scope of lookup(rules.methodScopes, method)) needed.add(scope);
    if (method !== TOOL_CALL.method) continue;
    const params = message["params"];
    const tool = isObject(params) ? params[TOOL_CALL.nameField] : undefined;
    if (typeof tool === "string") for (const scope of lookup(rules.toolScopes, tool)) needed.add(scope);
  }
  return [...needed];
}

/** The needed scopes that the granted ones, with everything they imply, do not cover. */
export function missingScopes(rules: ScopeRules, granted: readonly string[], needed: readonly string[]): string[] {
  const held = new Set<string>();
  const queue = [...granted];
  for (let scope = queue.pop(); scope !== undefined; scope = queue.pop()) {
    if (held.has(scope)) continue;
    held.add(scope);
    queue.push(...lookup(rules.impliedScopes, scope));
  }
  return needed.filter((scope) => !held.has(scope));
}
