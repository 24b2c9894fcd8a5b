// Model type nodes → TypeScript type syntax, mutually assignable with the upstream types.
//
// `any` never reaches generated code. Upstream uses it in one idiom,
// `params?: { [key: string]: any }`, to accept interfaces (which have no implicit index
// signature). An `any`-typed index signature is therefore dropped (object types are
// open anyway) and an object left with no members prints as `object`; both are mutually
// assignable with the original. Any other `any` prints as `unknown`.
import { constraintTagLines } from "../model/constraint-tags.js";
import type { Declaration, Property, TypeNode } from "../model/model.js";
import { docComment, propertyKey, stringLiteral } from "./code.js";

export function printType(node: TypeNode): string {
  switch (node.kind) {
    case "primitive":
      return node.name === "any" ? "unknown" : node.name;
    case "literal":
      return typeof node.value === "string" ? stringLiteral(node.value) : String(node.value);
    case "ref":
      return node.name;
    case "typeof":
      return `typeof ${node.name}`;
    case "array":
      return `${wrap(node.items, ["union", "intersection"])}[]`;
    case "union":
      return node.members.map((m) => printType(m)).join(" | ");
    case "intersection":
      return node.members.map((m) => wrap(m, ["union"])).join(" & ");
    case "object": {
      const index = node.indexSignature;
      const keepIndex = index !== undefined && !isAny(index.type);
      if (node.properties.length === 0 && index && !keepIndex) return "object";
      const members = node.properties.map(printProperty);
      if (keepIndex) members.push(`[${index.keyName}: ${index.keyType}]: ${printType(index.type)};`);
      return members.length === 0 ? "{}" : `{\n${members.join("\n")}\n}`;
    }
    case "record":
      return `Record<${printType(node.key)}, ${printType(node.value)}>`;
    case "omit":
      return `Omit<${printType(node.type)}, ${node.keys.map(stringLiteral).join(" | ")}>`;
  }
}

function wrap(node: TypeNode, kinds: TypeNode["kind"][]): string {
  const text = printType(node);
  return kinds.includes(node.kind) ? `(${text})` : text;
}

function isAny(node: TypeNode): boolean {
  return node.kind === "primitive" && node.name === "any";
}

/** Facts about a member or declaration, as JSDoc tags (never upstream prose). */
export function tagLines(item: Pick<Property, "constraints" | "deprecated" | "internal">): string[] {
  return [
    ...constraintTagLines(item.constraints),
    ...(item.deprecated ? ["@deprecated"] : []),
    ...(item.internal ? ["@internal"] : []),
  ];
}

function printProperty(p: Property): string {
  return `${docComment(tagLines(p))}${propertyKey(p.name)}${p.optional ? "?" : ""}: ${printType(p.type)};`;
}

/** A declaration's body: `interface X extends … { … }` or `type X = …`, without `export` or docs. */
export function printDeclaration(decl: Declaration): string {
  if (decl.kind === "alias") return `type ${decl.name} = ${printType(decl.type)};`;
  const heritage = decl.extends.length > 0 ? ` extends ${decl.extends.map((t) => printType(t)).join(", ")}` : "";
  const body = printType({
    kind: "object",
    properties: decl.properties,
    ...(decl.indexSignature ? { indexSignature: decl.indexSignature } : {}),
  });
  // An interface body is always braces, even when the members print as `object`.
  return `interface ${decl.name}${heritage} ${body === "object" ? "{}" : body}`;
}
