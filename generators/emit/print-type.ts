// Model type nodes → TypeScript type syntax, mutually assignable with the upstream types.
//
// `any` never reaches generated code. Upstream uses it in one idiom,
// `params?: { [key: string]: any }`, to accept interfaces (which have no implicit index
// signature). An `any`-typed index signature is therefore dropped (object types are
// open anyway) and an object left with no members prints as `object`; both are mutually
// assignable with the original. Any other `any` prints as `unknown`.
import { constraintTagLines } from "../model/constraint-tags.js";
import type { Declaration, Property, TypeNode } from "../model/model.js";
import { childTypes, declarationTypes } from "../model/walk.js";
import { docComment, propertyKey, stringLiteral } from "./code.js";

/** `qualify` names schema declarations, e.g. `T.Tool` in files that import the types as a namespace. */
export function printType(node: TypeNode, qualify: (name: string) => string = (name) => name): string {
  const print = (child: TypeNode) => printType(child, qualify);
  const wrap = (child: TypeNode, kinds: TypeNode["kind"][]) =>
    kinds.includes(child.kind) ? `(${print(child)})` : print(child);
  switch (node.kind) {
    case "primitive":
      return node.name === "any" ? "unknown" : node.name;
    case "literal":
      return typeof node.value === "string" ? stringLiteral(node.value) : String(node.value);
    case "ref":
      return qualify(node.name);
    case "typeof":
      return `typeof ${qualify(node.name)}`;
    case "array":
      return `${wrap(node.items, ["union", "intersection"])}[]`;
    case "union":
      return node.members.map(print).join(" | ");
    case "intersection":
      return node.members.map((m) => wrap(m, ["union"])).join(" & ");
    case "object": {
      const index = node.indexSignature;
      const keepIndex = index !== undefined && !isAny(index.type);
      if (node.properties.length === 0 && index && !keepIndex) return "object";
      const members = node.properties.map((p) => printProperty(p, qualify));
      if (keepIndex) members.push(`[${index.keyName}: ${index.keyType}]: ${print(index.type)};`);
      return members.length === 0 ? "{}" : `{\n${members.join("\n")}\n}`;
    }
    case "record":
      return `Record<${print(node.key)}, ${print(node.value)}>`;
    case "omit":
      return `Omit<${print(node.type)}, ${node.keys.map(stringLiteral).join(" | ")}>`;
  }
}

function isAny(node: TypeNode): boolean {
  return node.kind === "primitive" && node.name === "any";
}

/**
 * Whether a declaration prints an empty object type, kept as the schema writes it so that a type
 * keeps its own name (`interface ReadResourceRequestParams extends ResourceRequestParams {}`,
 * `roots?: {}`), which typescript-eslint's recommended rules report (no-empty-object-type, which
 * allows an interface with two parents and `{}` directly in an intersection).
 */
export function printsEmptyObjectType(decl: Declaration): boolean {
  if (decl.kind === "interface" && decl.extends.length <= 1 && decl.properties.length === 0) {
    if (decl.indexSignature === undefined || isAny(decl.indexSignature.type)) return true;
  }
  return declarationTypes(decl).some((node) => hasEmptyObject(node, false));
}

function hasEmptyObject(node: TypeNode, inIntersection: boolean): boolean {
  const empty = node.kind === "object" && node.properties.length === 0 && node.indexSignature === undefined;
  if (empty && !inIntersection) return true;
  return childTypes(node).some((child) => hasEmptyObject(child, node.kind === "intersection"));
}

/** Facts about a member or declaration, as JSDoc tags (never upstream prose). */
export function tagLines(item: Pick<Property, "constraints" | "deprecated" | "internal">): string[] {
  return [
    ...constraintTagLines(item.constraints),
    ...(item.deprecated ? ["@deprecated"] : []),
    ...(item.internal ? ["@internal"] : []),
  ];
}

function printProperty(p: Property, qualify: (name: string) => string): string {
  return `${docComment(tagLines(p))}${propertyKey(p.name)}${p.optional ? "?" : ""}: ${printType(p.type, qualify)};`;
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
