// JSDoc tags → facts. Prose (descriptions, @example, @see) is dropped on purpose;
// a tag we do not know is an error, so nothing that might constrain values slips by.
import { Node } from "./ts-morph.js";
import { CONSTRAINT_TAGS } from "../model/constraint-tags.js";
import type { Constraints, Markers } from "../model/model.js";

export interface TagFacts {
  markers: Markers;
  constraints?: Constraints;
  category?: string;
}

/** Documentation-only tags. */
const IGNORED = ["description", "example", "link", "privateRemarks", "remarks", "see", "since"];

export const SUPPORTED_TAGS = [...CONSTRAINT_TAGS.map((t) => t.tag), "category", "deprecated", "internal", ...IGNORED];

export function readTags(node: Node, fail: (at: Node, message: string) => never): TagFacts {
  const facts: TagFacts = { markers: {} };
  const constraints: Record<string, number | string | boolean> = {};
  if (!Node.isJSDocable(node)) return facts;
  for (const doc of node.getJsDocs()) {
    for (const tag of doc.getTags()) {
      const name = tag.getTagName();
      const text = (tag.getCommentText() ?? "").trim();
      const constraint = CONSTRAINT_TAGS.find((t) => t.tag === name);
      if (constraint?.value === "number") {
        const value = Number(text);
        if (text === "" || !Number.isFinite(value)) fail(tag, `@${name} needs a number, got "${text}"`);
        constraints[constraint.key] = value;
      } else if (constraint?.value === "word") {
        const word = text.split(/\s+/)[0] ?? "";
        if (word === "") fail(tag, `@${name} needs a value`);
        constraints[constraint.key] = word;
      } else if (constraint?.value === "flag") {
        if (text !== "" && text !== "true") fail(tag, `@${name} takes no value, got "${text}"`);
        constraints[constraint.key] = true;
      } else if (name === "deprecated") {
        facts.markers.deprecated = true;
      } else if (name === "internal") {
        facts.markers.internal = true;
      } else if (name === "category") {
        if (text === "") fail(tag, "@category needs a value");
        facts.category = text;
      } else if (!IGNORED.includes(name)) {
        fail(tag, `unsupported JSDoc tag @${name} (supported: ${SUPPORTED_TAGS.map((t) => "@" + t).join(", ")})`);
      }
    }
  }
  if (Object.keys(constraints).length > 0) facts.constraints = constraints as Constraints;
  return facts;
}
