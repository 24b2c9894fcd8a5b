// Facts the validator emitter derives from the model before writing code: which
// declarations can recurse, the members of unions through aliases, and which unions can
// dispatch on a literal property (`type`, `method`) instead of trying every member.
import { cycles } from "../../cycles.js";
import type { Declaration, LiteralValue, Model, Shape, TypeNode } from "../../model/model.js";
import { referencedNames } from "../../model/walk.js";

type CheckedModel = Pick<Model, "declarations" | "conventions">;

export interface Discrimination {
  property: string;
  /** Each case: the values that select it and the members that can then match. */
  cases: { values: LiteralValue[]; members: TypeNode[] }[];
}

export class ValidationPlan {
  readonly declarations: ReadonlyMap<string, Declaration>;
  /** Declarations that can reach themselves through references: they guard their depth. */
  readonly recursive: ReadonlySet<string>;

  constructor(readonly model: CheckedModel) {
    this.declarations = new Map(model.declarations.map((d) => [d.name, d]));
    this.recursive = recursiveDeclarations(model.declarations);
  }

  declaration(name: string): Declaration {
    const decl = this.declarations.get(name);
    if (!decl) throw new Error(`validators: unknown type ${name}`);
    return decl;
  }

  /** The members of a union, with references to aliases of unions expanded. */
  flatten(node: TypeNode, seen: Set<string> = new Set()): TypeNode[] {
    if (node.kind === "union") return node.members.flatMap((m) => this.flatten(m, seen));
    if (node.kind === "ref" && !seen.has(node.name)) {
      const decl = this.declaration(node.name);
      if (decl.kind === "alias" && decl.type.kind === "union" && !decl.constraints) {
        return this.flatten(decl.type, new Set([...seen, node.name]));
      }
    }
    return [node];
  }

  /** The properties a member must have, when it is an object type. */
  shape(node: TypeNode): Shape | undefined {
    if (node.kind === "ref") return this.declaration(node.name).resolved;
    if (node.kind === "object") {
      return {
        properties: node.properties.map((p) => ({ ...p, from: "" })),
        ...(node.indexSignature ? { indexSignature: node.indexSignature } : {}),
      };
    }
    return undefined;
  }

  /**
   * A property every member requires with literal values: its value picks the members that can
   * match (one, when no two members share a value; a few otherwise), instead of trying them all.
   * Properties that single members out are preferred.
   */
  discriminate(members: TypeNode[]): Discrimination | undefined {
    if (members.length < 2) return undefined;
    const shapes = members.map((m) => this.shape(m));
    if (shapes.some((s) => s === undefined)) return undefined;
    let best: Discrimination | undefined;
    for (const candidate of (shapes[0] as Shape).properties) {
      const valuesOf = members.map((_, i) => {
        const p = (shapes[i] as Shape).properties.find((q) => q.name === candidate.name);
        return p && !p.optional ? literalValues(p.type) : undefined;
      });
      if (valuesOf.some((v) => v === undefined)) continue;
      // value → the members that allow it; values with the same members make one case.
      const byValue = new Map<LiteralValue, TypeNode[]>();
      valuesOf.forEach((values, i) => {
        for (const value of values as LiteralValue[])
          byValue.set(value, [...(byValue.get(value) ?? []), members[i] as TypeNode]);
      });
      const cases: Discrimination["cases"] = [];
      for (const [value, group] of byValue) {
        const same = cases.find((c) => c.members.length === group.length && c.members.every((m, k) => m === group[k]));
        if (same) same.values.push(value);
        else cases.push({ values: [value], members: group });
      }
      if (cases.length < 2) continue;
      const widest = Math.max(...cases.map((c) => c.members.length));
      if (!best || widest < Math.max(...best.cases.map((c) => c.members.length))) {
        best = { property: candidate.name, cases };
      }
      if (widest === 1) break;
    }
    return best;
  }

  /** How a union member is named in messages; `number` by the JSON type it must have. */
  label(node: TypeNode, numberType: string = this.model.conventions.numberType): string {
    switch (node.kind) {
      case "ref":
      case "typeof":
        return node.name;
      case "literal":
        return JSON.stringify(node.value);
      case "primitive":
        return node.name === "number" ? numberType : node.name;
      case "array":
        return `${this.label(node.items)}[]`;
      case "union":
        return node.members.map((m) => this.label(m, numberType)).join(" | ");
      default:
        return node.kind === "record" ? "object" : node.kind === "intersection" ? "intersection" : "object";
    }
  }
}

function literalValues(node: TypeNode): LiteralValue[] | undefined {
  if (node.kind === "literal" || node.kind === "typeof") return [node.value];
  if (node.kind === "union") {
    const values = node.members.map(literalValues);
    return values.every((v) => v !== undefined) ? values.flat() : undefined;
  }
  return undefined;
}

/** The types a declaration's validator calls: its resolved properties, or its alias type. */
function dependencies(decl: Declaration): string[] {
  if (decl.kind === "alias") return referencedNames([decl.type]);
  const shape = decl.resolved;
  const nodes = shape ? shape.properties.map((p) => p.type) : [];
  if (shape?.indexSignature) nodes.push(shape.indexSignature.type);
  return referencedNames(nodes);
}

/** Declarations on a reference cycle. */
export function recursiveDeclarations(declarations: Declaration[]): Set<string> {
  const edges = new Map(declarations.map((d) => [d.name, dependencies(d)]));
  return new Set(cycles(edges.keys(), edges).flat());
}
