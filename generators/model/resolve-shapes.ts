// Pass: give every object-like declaration its full property set, as users see it,
// after `extends` chains, `Omit<>`, intersections and `Record<>` are applied.
import { ModelError } from "./errors.js";
import type { Declaration, IndexSignature, ResolvedProperty, Shape, TypeNode } from "./model.js";

export function resolveShapes(declarations: Declaration[]): Declaration[] {
  const byName = new Map(declarations.map((d) => [d.name, d]));
  const done = new Map<string, Shape | undefined>();
  const inProgress = new Set<string>();

  function shapeOfDeclaration(name: string): Shape | undefined {
    if (done.has(name)) return done.get(name);
    const decl = byName.get(name);
    if (!decl) throw new ModelError(`unknown type ${name}`);
    // An alias may refer to itself through a union (JSONValue); such types have no
    // object shape. An interface that extends itself is malformed.
    if (inProgress.has(name)) {
      if (decl.kind === "interface") throw new ModelError(`${name} extends itself`, name);
      return undefined;
    }
    inProgress.add(name);
    const shape = decl.kind === "interface" ? interfaceShape(decl) : shapeOf(decl.type, decl.name);
    inProgress.delete(name);
    done.set(name, shape);
    return shape;
  }

  function interfaceShape(decl: Extract<Declaration, { kind: "interface" }>): Shape {
    const bases = decl.extends.map((base) => {
      const shape = shapeOf(base, decl.name);
      if (!shape) throw new ModelError(`${decl.name} extends a type that is not an object type`, decl.name);
      return shape;
    });
    const merged = bases.reduce<Shape>((acc, s) => overlay(acc, s), { properties: [] });
    const own: Shape = {
      properties: decl.properties.map((p) => ({ ...p, from: decl.name })),
      ...(decl.indexSignature ? { indexSignature: decl.indexSignature } : {}),
    };
    return overlay(merged, own);
  }

  function shapeOf(node: TypeNode, owner: string): Shape | undefined {
    switch (node.kind) {
      case "ref":
        return shapeOfDeclaration(node.name);
      case "object":
        return {
          properties: node.properties.map((p) => ({ ...p, from: owner })),
          ...(node.indexSignature ? { indexSignature: node.indexSignature } : {}),
        };
      case "intersection": {
        const shapes = node.members.map((m) => shapeOf(m, owner));
        if (shapes.some((s) => s === undefined)) return undefined;
        return (shapes as Shape[]).reduce((acc, s) => intersect(acc, s));
      }
      case "omit": {
        const base = shapeOf(node.type, owner);
        if (!base) return undefined;
        const keys = new Set(node.keys);
        return { ...base, properties: base.properties.filter((p) => !keys.has(p.name)) };
      }
      case "record":
        if (node.key.kind === "primitive" && node.key.name === "string") {
          return { properties: [], indexSignature: { keyName: "key", keyType: "string", type: node.value } };
        }
        return undefined;
      case "primitive":
        return node.name === "object" ? { properties: [] } : undefined;
      default:
        return undefined;
    }
  }

  return declarations.map((decl) => {
    const shape = shapeOfDeclaration(decl.name);
    return shape ? { ...decl, resolved: shape } : decl;
  });
}

/** `top`'s properties replace `base`'s of the same name (interface inheritance). */
function overlay(base: Shape, top: Shape): Shape {
  const properties = [...base.properties];
  for (const p of top.properties) {
    const i = properties.findIndex((q) => q.name === p.name);
    if (i >= 0) properties[i] = p;
    else properties.push(p);
  }
  const indexSignature = top.indexSignature ?? base.indexSignature;
  return indexSignature ? { properties, indexSignature } : { properties };
}

/** Both shapes at once (`A & B`): a property in both has both types. */
function intersect(a: Shape, b: Shape): Shape {
  const properties: ResolvedProperty[] = [...a.properties];
  for (const p of b.properties) {
    const i = properties.findIndex((q) => q.name === p.name);
    const q = properties[i];
    if (!q) {
      properties.push(p);
      continue;
    }
    properties[i] = {
      ...q,
      optional: q.optional && p.optional,
      type: sameType(q.type, p.type) ? q.type : { kind: "intersection", members: [q.type, p.type] },
    };
  }
  const indexSignature = intersectIndex(a.indexSignature, b.indexSignature);
  return indexSignature ? { properties, indexSignature } : { properties };
}

function intersectIndex(a?: IndexSignature, b?: IndexSignature): IndexSignature | undefined {
  if (!a || !b) return a ?? b;
  if (sameType(a.type, b.type)) return a;
  return { ...a, type: { kind: "intersection", members: [a.type, b.type] } };
}

function sameType(a: TypeNode, b: TypeNode): boolean {
  return JSON.stringify(a) === JSON.stringify(b);
}
