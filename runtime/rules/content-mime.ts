// Media content carries a well-formed MIME type (the prompts page: image and audio content in a
// prompt's messages). Checked on the results the model names: by the server before it answers,
// and by the client when the answer arrives. The block types, field and paths come from the model.
import { isObject } from "../jsonrpc.js";
import type { ContentMimeFact } from "./facts.js";
import { RuleViolation } from "./violation.js";

export const PROMPTS_IMAGE_MIME = "PROMPTS_IMAGE_MIME";
export const PROMPTS_AUDIO_MIME = "PROMPTS_AUDIO_MIME";

// RFC 6838 section 4.2: a type and a subtype, each a restricted name (a letter or digit, then up
// to 126 of letters, digits and ! # $ & - ^ _ . +); then RFC 9110's parameters: `;` between
// optional whitespace, each name=value with a token or quoted-string value. Every repetition
// starts with a `;`, so the expression cannot backtrack badly.
const NAME = "[A-Za-z0-9][A-Za-z0-9!#$&^_.+-]{0,126}";
const TOKEN = "[!#$%&'*+.^_`|~0-9A-Za-z-]+";
const QUOTED = '"(?:[\\t \\x21\\x23-\\x5B\\x5D-\\x7E\\x80-\\xFF]|\\\\[\\t \\x21-\\x7E\\x80-\\xFF])*"';
const MEDIA_TYPE = new RegExp(`^${NAME}/${NAME}(?:[ \\t]*;[ \\t]*(?:${TOKEN}=(?:${TOKEN}|${QUOTED}))?)*$`);

/** Whether a value is a well-formed media type (`image/png`, `text/plain; charset=utf-8`). */
export function isMediaType(value: unknown): boolean {
  return typeof value === "string" && MEDIA_TYPE.test(value);
}

/** The first media block of a result whose MIME type is not well formed. */
export function contentMimeViolation(
  facts: ContentMimeFact,
  method: string,
  result: unknown,
): RuleViolation | undefined {
  const path = facts.results[method];
  if (!path) return undefined;
  let nodes: unknown[] = [result];
  for (const field of path) {
    const next: unknown[] = [];
    for (const node of nodes) {
      const value = isObject(node) ? node[field] : undefined;
      if (Array.isArray(value)) next.push(...value);
      else if (value !== undefined) next.push(value);
    }
    nodes = next;
  }
  for (const block of nodes) {
    if (!isObject(block)) continue;
    const kind = facts.blocks.find((b) => b.type === block["type"]);
    if (!kind || isMediaType(block[facts.field])) continue;
    return new RuleViolation(
      kind.rule,
      `${method}: ${kind.type} content with ${facts.field} ${JSON.stringify(block[facts.field])}, which is not a valid MIME type`,
    );
  }
  return undefined;
}
