// A revision's shape table (runtime/projection/shapes.ts) from its model: the declarations
// reachable from what a server sends, each as the compact shape the projection walker reads.
// Pure: model in, plain data out.
import type { Declaration, Model, ObjectNode, Property, TypeNode } from "../model/model.js";

export type Shape = 0 | string | ObjectShape | { a: Shape } | { u: Shape[] };
export interface ObjectShape {
  o: { [property: string]: Shape };
  req?: string[];
  lit?: { [property: string]: Literal | Literal[] };
  x?: Shape;
}
type Literal = string | number | boolean;

/** Primitives that admit any object: a union with one of them is kept as it is. */
const OPEN = new Set(["unknown", "any", "object"]);

export class ShapeTable {
  private readonly byName: Map<string, Declaration>;
  /** Declarations whose shape is known (0 when anything goes); in progress ones are provisionally named. */
  readonly types = new Map<string, Shape>();

  /** `Type.property` whose values are kept whole (JSON Schemas: their keywords are not the revision's). */
  private readonly whole: ReadonlySet<string>;

  constructor(model: Model, whole: readonly string[] = []) {
    this.byName = new Map(model.declarations.map((d) => [d.name, d]));
    this.whole = new Set(whole);
  }

  has(name: string): boolean {
    return this.byName.has(name);
  }

  /** The shape of a type node; referenced declarations join the table. */
  of(node: TypeNode): Shape {
    switch (node.kind) {
      case "primitive":
      case "literal":
      case "typeof":
        return 0;
      case "ref":
        return this.declaration(node.name) === 0 ? 0 : node.name;
      case "array": {
        const items = this.of(node.items);
        return items === 0 ? 0 : { a: items };
      }
      case "union": {
        if (node.members.some((m) => m.kind === "primitive" && OPEN.has(m.name))) return 0;
        const members = node.members.map((m) => this.of(m)).filter((s) => s !== 0);
        if (members.length === 0) return 0;
        return members.length === 1 ? members[0]! : { u: members };
      }
      case "intersection": {
        const parts = node.members.map((m) => this.objectOf(m));
        if (parts.some((p) => p === undefined)) return 0;
        return merge(parts as ObjectShape[]);
      }
      case "object":
        return this.inline(node);
      case "record": {
        const value = this.of(node.value);
        return { o: {}, x: value };
      }
      case "omit": {
        const base = this.objectOf(node.type);
        if (!base) return 0;
        const o = Object.fromEntries(Object.entries(base.o).filter(([k]) => !node.keys.includes(k)));
        return compact({ ...base, o, req: base.req?.filter((k) => !node.keys.includes(k)) ?? [] });
      }
    }
  }

  /** A declaration's shape, computed once. */
  declaration(name: string): Shape {
    const known = this.types.get(name);
    if (known !== undefined) return known;
    const declaration = this.byName.get(name);
    if (!declaration) return 0;
    // Recursive types refer to themselves by name while they are built.
    this.types.set(name, name);
    let shape: Shape;
    if (declaration.resolved) {
      const { properties, indexSignature } = declaration.resolved;
      shape = this.properties(properties, undefined, name);
      // A declaration's own index signature (Result's) is room for later revisions' fields, which
      // this revision does not have; an object that declares nothing else is a bag, kept whole.
      if (indexSignature && properties.length === 0) shape = { o: {}, x: this.of(indexSignature.type) };
    } else if (declaration.kind === "alias") {
      shape = this.of(declaration.type);
    } else {
      shape = 0;
    }
    this.types.set(name, shape);
    return shape;
  }

  private inline(node: ObjectNode): ObjectShape {
    return this.properties(node.properties, node.indexSignature ? this.of(node.indexSignature.type) : undefined);
  }

  private properties(properties: readonly Property[], x: Shape | undefined, owner?: string): ObjectShape {
    const o: { [property: string]: Shape } = {};
    const req: string[] = [];
    const lit: { [property: string]: Literal | Literal[] } = {};
    for (const p of properties) {
      o[p.name] = this.whole.has(`${owner}.${p.name}`) ? 0 : this.of(p.type);
      if (!p.optional) req.push(p.name);
      const literals = literalsOf(p.type);
      if (literals) lit[p.name] = literals.length === 1 ? literals[0]! : literals;
    }
    return compact({ o, req, lit, ...(x === undefined ? {} : { x }) });
  }

  /** The object shape a node stands for, through references; undefined when it is not one. */
  private objectOf(node: TypeNode): ObjectShape | undefined {
    let shape = this.of(node);
    for (let i = 0; typeof shape === "string" && i < 64; i++) shape = this.types.get(shape) ?? 0;
    return typeof shape === "object" && "o" in shape ? shape : undefined;
  }
}

/** The values of a literal type or a union of literals (`"number" | "integer"`). */
function literalsOf(node: TypeNode): Literal[] | undefined {
  if (node.kind === "literal" || node.kind === "typeof") return [node.value];
  if (node.kind !== "union") return undefined;
  const values = node.members.map((m) => (m.kind === "literal" || m.kind === "typeof" ? m.value : undefined));
  return values.every((v) => v !== undefined) ? (values as Literal[]) : undefined;
}

function merge(parts: ObjectShape[]): ObjectShape {
  const o: { [property: string]: Shape } = {};
  const req = new Set<string>();
  const lit: { [property: string]: Literal | Literal[] } = {};
  let x: Shape | undefined;
  for (const part of parts) {
    Object.assign(o, part.o);
    for (const r of part.req ?? []) req.add(r);
    Object.assign(lit, part.lit ?? {});
    if (part.x !== undefined) x = part.x;
  }
  return compact({ o, req: [...req], lit, ...(x === undefined ? {} : { x }) });
}

/** Without empty `req` and `lit`. */
function compact(shape: ObjectShape): ObjectShape {
  const out: ObjectShape = { o: shape.o };
  if (shape.req && shape.req.length > 0) out.req = shape.req;
  if (shape.lit && Object.keys(shape.lit).length > 0) out.lit = shape.lit;
  if (shape.x !== undefined) out.x = shape.x;
  return out;
}
