// Scope as sets of words: which scope to ask for first (the challenge's, else the resource's
// scopes_supported, else none), what a step-up asks for (what was had plus what is challenged),
// and whether a token already has what is asked (then re-authorizing would not help).
// Spec: https://modelcontextprotocol.io/specification/2025-11-25/basic/authorization#scope-selection-strategy

export const OFFLINE_ACCESS = "offline_access";

/** The words of a scope value, each once. */
export function scopeSet(value: string | readonly string[] | undefined): string[] {
  const words = typeof value === "string" ? value.split(/\s+/) : (value ?? []);
  return [...new Set(words.filter((word) => word !== ""))];
}

export function union(...sets: readonly (readonly string[])[]): string[] {
  return [...new Set(sets.flat())];
}

export function covers(have: readonly string[], need: readonly string[]): boolean {
  return need.every((word) => have.includes(word));
}

/** The scope of a first authorization: the challenge's, else scopes_supported; empty: leave it out. */
export function initialScope(
  challenged: readonly string[] | undefined,
  supported: readonly string[] | undefined,
): string[] {
  return scopeSet(challenged !== undefined && challenged.length > 0 ? challenged : supported);
}

/**
 * `scope` plus offline_access when a refresh token is wanted and the authorization server lists
 * it (2026-07-28: a client may). Never alone: an empty scope stays empty (the server's default).
 */
export function withOfflineAccess(
  scope: readonly string[],
  wanted: boolean,
  offered: readonly string[] | undefined,
): string[] {
  return scope.length > 0 && wanted && offered?.includes(OFFLINE_ACCESS) ? union(scope, [OFFLINE_ACCESS]) : [...scope];
}
