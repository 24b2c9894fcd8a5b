// Types as one line of TypeScript-like text, for the before/after of findings.
import type { Declaration, LiteralValue, Property, TypeNode } from "../../model/model.js";

export function printLiteral(value: LiteralValue): string {
  return typeof value === "string" ? JSON.stringify(value) : String(value);
}

export function printNode(node: TypeNode): string {
  switch (node.kind) {
    case "primitive":
      return node.name;
    case "literal":
      return printLiteral(node.value);
    case "ref":
      return node.name;
    case "typeof":
      return `typeof ${node.name}`;
    case "array": {
      const items = printNode(node.items);
      return node.items.kind === "union" || node.items.kind === "intersection" ? `(${items})[]` : `${items}[]`;
    }
    case "union":
      return node.members.map(printNode).join(" | ");
    case "intersection":
      return node.members.map((m) => (m.kind === "union" ? `(${printNode(m)})` : printNode(m))).join(" & ");
    case "object": {
      const members = node.properties.map(printMember);
      if (node.indexSignature) {
        members.push(
          `[${node.indexSignature.keyName}: ${node.indexSignature.keyType}]: ${printNode(node.indexSignature.type)}`,
        );
      }
      return members.length === 0 ? "{}" : `{ ${members.join("; ")} }`;
    }
    case "record":
      return `Record<${printNode(node.key)}, ${printNode(node.value)}>`;
    case "omit":
      return `Omit<${printNode(node.type)}, ${node.keys.map((k) => JSON.stringify(k)).join(" | ")}>`;
  }
}

function printMember(p: Property): string {
  const key = /^[A-Za-z_$][\w$]*$/.test(p.name) ? p.name : JSON.stringify(p.name);
  return `${key}${p.optional ? "?" : ""}: ${printNode(p.type)}`;
}

/** A declaration in brief: an interface by its resolved fields, an alias by its type. */
export function printDeclaration(decl: Declaration): string {
  if (decl.kind === "alias") return printNode(decl.type);
  const fields = (decl.resolved?.properties ?? decl.properties).map((p) => `${p.name}${p.optional ? "?" : ""}`);
  return `interface { ${fields.join(", ")} }`;
}
