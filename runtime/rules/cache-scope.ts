// Cache scope across pages (the caching page, 2026-07-28 on): every page of one list carries the
// scope of its first, so that a list kept private is never partly served to anyone. Checked by
// the generated client as it follows a list's cursor.
import { isObject } from "../jsonrpc.js";
import type { CacheScopeFact } from "./facts.js";
import { RuleViolation } from "./violation.js";

export const CACHE_PAGE_SCOPE = "CACHE_PAGE_SCOPE";

/** A later page of a list whose scope is not its first page's. */
export function pageScopeViolation(
  facts: CacheScopeFact,
  method: string,
  first: unknown,
  page: unknown,
): RuleViolation | undefined {
  const scope = (result: unknown) => (isObject(result) ? result[facts.field] : undefined);
  if (scope(page) === scope(first)) return undefined;
  return new RuleViolation(
    CACHE_PAGE_SCOPE,
    `a ${method} page of ${facts.field} ${JSON.stringify(scope(page))} after a first page of ${JSON.stringify(scope(first))}`,
  );
}
