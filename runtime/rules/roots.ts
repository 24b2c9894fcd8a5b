// Roots are file URIs (the roots page): a listing with any other URI is refused, by the client
// before it answers and by the server when it reads the answer.
import { isObject } from "../jsonrpc.js";
import type { RootUrisFact } from "./facts.js";
import { RuleViolation } from "./violation.js";

export const ROOTS_FILE_URI = "ROOTS_FILE_URI";

export function rootsViolation(facts: RootUrisFact, result: unknown): RuleViolation | undefined {
  const roots = isObject(result) ? result[facts.list] : undefined;
  if (!Array.isArray(roots)) return undefined;
  for (const root of roots) {
    const uri = isObject(root) ? root[facts.uri] : undefined;
    if (typeof uri === "string" && !uri.startsWith(facts.scheme)) {
      return new RuleViolation(
        ROOTS_FILE_URI,
        `${facts.request}: the root ${JSON.stringify(uri)} is not a ${facts.scheme} URI`,
      );
    }
  }
  return undefined;
}
