// The one traversal of type nodes that every pass and emitter shares.
import type { Declaration, Model, TypeNode } from "./model.js";

/** The type nodes directly inside `node`, in source order. */
export function childTypes(node: TypeNode): TypeNode[] {
  switch (node.kind) {
    case "array":
      return [node.items];
    case "union":
    case "intersection":
      return node.members;
    case "object": {
      const children = node.properties.map((p) => p.type);
      if (node.indexSignature) children.push(node.indexSignature.type);
      return children;
    }
    case "record":
      return [node.key, node.value];
    case "omit":
      return [node.type];
    case "primitive":
    case "literal":
    case "ref":
    case "typeof":
      return [];
  }
}

/** Visits `node` and everything inside it, depth first, parents before children. */
export function walkType(node: TypeNode, visit: (node: TypeNode) => void): void {
  visit(node);
  for (const child of childTypes(node)) walkType(child, visit);
}

/** The top-level type nodes a declaration is made of. */
export function declarationTypes(decl: Declaration): TypeNode[] {
  if (decl.kind === "alias") return [decl.type];
  const nodes = [...decl.extends, ...decl.properties.map((p) => p.type)];
  if (decl.indexSignature) nodes.push(decl.indexSignature.type);
  return nodes;
}

/** Names of the declarations `nodes` refer to, in first-seen order. */
export function referencedNames(nodes: Iterable<TypeNode>): string[] {
  const names = new Set<string>();
  for (const node of nodes) {
    walkType(node, (n) => {
      if (n.kind === "ref") names.add(n.name);
    });
  }
  return [...names];
}

/** Every type node of the model: declarations first, then the method map. */
export function* allTypeNodes(model: Model): Generator<TypeNode> {
  for (const decl of model.declarations) yield* declarationTypes(decl);
  for (const m of model.methods) {
    if (m.params) yield m.params.type;
    if (m.result) yield m.result;
  }
}
