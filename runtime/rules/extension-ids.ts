// Extension identifiers (the versioning page, 2026-07-28 on): the keys of a capabilities object's
// extensions map follow the _meta key naming rules of the schema's MetaObject, with the prefix
// that is optional elsewhere mandatory. Checked on this side's own capabilities before anything
// is sent, and on the other side's when they arrive. The field comes from the model.
import { ErrorCode, isObject } from "../jsonrpc.js";
import type { ExtensionIdsFact } from "./facts.js";
import { RuleViolation } from "./violation.js";

export const EXTENSION_ID_FORMAT = "EXTENSION_ID_FORMAT";

// Prefix: dot-separated labels, each a letter, then letters, digits or hyphens, ending in a letter
// or digit; then a slash. Name: empty, or alphanumeric at both ends with - _ . inside.
const LABEL = "[A-Za-z](?:[A-Za-z0-9-]*[A-Za-z0-9])?";
const NAME = "(?:[A-Za-z0-9](?:[A-Za-z0-9._-]*[A-Za-z0-9])?)?";
const EXTENSION_ID = new RegExp(`^${LABEL}(?:\\.${LABEL})*/${NAME}$`);

/** Whether a string is a well-formed extension identifier (`io.modelcontextprotocol/ui`). */
export function isExtensionId(id: string): boolean {
  return EXTENSION_ID.test(id);
}

/** The first extension identifier of `side`'s capabilities that is not well formed. */
export function extensionIdViolation(
  facts: ExtensionIdsFact,
  side: "client" | "server",
  capabilities: unknown,
  code: number = ErrorCode.InternalError,
): RuleViolation | undefined {
  const extensions = isObject(capabilities) ? capabilities[facts.field] : undefined;
  if (!isObject(extensions)) return undefined;
  const malformed = Object.keys(extensions).find((id) => !isExtensionId(id));
  if (malformed === undefined) return undefined;
  return new RuleViolation(
    EXTENSION_ID_FORMAT,
    `the ${side} capabilities declare the extension ${JSON.stringify(malformed)}, which is no prefixed _meta key (like "com.example/name")`,
    code,
  );
}
