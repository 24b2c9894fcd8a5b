// An interface that became a union, or the reverse: classified by the values it admits, with
// the closest union member and the structural difference spelled out.
import type { Declaration } from "../../model/model.js";
import type { Delta } from "./deltas.js";
import type { Explain } from "./describe.js";
import { printDeclaration, printNode } from "./display.js";
import { similarity } from "./renames.js";
import { members, type Sides } from "./sides.js";
import { TypeRelation } from "./type-relation.js";

export interface FormChange {
  delta: Delta;
  /** A member only the new side names whose structure equals the old interface: its extraction. */
  oldShape?: string;
}

export function formChange(sides: Sides, oldName: string, newName: string, explain: Explain): FormChange {
  const relation = sides.relation.relate({ kind: "ref", name: oldName }, { kind: "ref", name: newName });
  const objectBefore = sides.before.form(oldName) === "object";
  const union = objectBefore ? sides.after.body(newName) : sides.before.body(oldName);
  const scored = members(union)
    .flatMap((m) => (m.kind === "ref" ? [m.name] : []))
    .map((name) => ({
      name,
      score: objectBefore
        ? similarity(oldName, name, sides.before, sides.after, sides.relation)
        : similarity(name, newName, sides.before, sides.after, sides.relation),
    }))
    .sort((x, y) => y.score - x.score);
  const head = objectBefore ? `interface → union of ${printNode(union)}` : `union of ${printNode(union)} → interface`;
  const shape = objectBefore ? "old" : "new";
  const best = scored[0];
  let detail = `${head}; no member resembles the ${shape} shape`;
  if (best && best.score > 0) {
    const pair = objectBefore
      ? explain({ kind: "ref", name: oldName }, sides.after.body(best.name), true)
      : explain(sides.before.body(best.name), { kind: "ref", name: newName }, true);
    const rest = scored.slice(1).map((s) => s.name);
    detail = [
      `${head}; the ${shape} shape is ${best.score === 1 ? "equal to" : "closest to"} ${best.name}${pair ? ` (${pair})` : ""}`,
      ...(rest.length > 0 ? [`${objectBefore ? "new" : "former"} members: ${rest.join(", ")}`] : []),
    ].join("; ");
  }
  return {
    delta: {
      fact: "type-changed",
      name: newName,
      relation,
      before: printDeclaration(sides.before.decl(oldName) as Declaration),
      after: printDeclaration(sides.after.decl(newName) as Declaration),
      detail,
      regrouped: relation !== "same" && regrouped(sides, oldName, newName),
    },
    ...(objectBefore && best?.score === 1 && sides.oneSided(best.name, "after") ? { oldShape: best.name } : {}),
  };
}

/**
 * An interface↔union switch changes no message when the type is only ever a member of unions
 * and each of those unions admits exactly the same values before and after.
 */
function regrouped(sides: Sides, oldName: string, newName: string): boolean {
  const usesA = sides.before.usesOf(oldName);
  const usesB = sides.after.usesOf(newName);
  if (usesA.elsewhere || usesB.elsewhere) return false;
  const unfolded = new TypeRelation(sides.before, sides.after, (o, n) => sides.identical(o, n) && n !== newName);
  for (const union of new Set([...usesA.unions, ...usesB.unions])) {
    if (!sides.before.has(union) || !sides.after.has(union)) return false;
    if (unfolded.relate(sides.before.body(union), sides.after.body(union)) !== "same") return false;
  }
  return true;
}
