// Which members of an old union correspond to which members of the new one. Members are
// matched by identity (same declaration, same literal), then by equal structure; one unmatched
// inline object (or array) on each side is paired to be compared field by field. What stays
// unmatched was removed or added.
import type { TypeNode } from "../../model/model.js";
import { members, sameAtom, type SideName, type Sides } from "./sides.js";

export interface UnionPlan {
  /** Unmatched members: removed (left) and added (right). */
  left: TypeNode[];
  right: TypeNode[];
  /** All members after flattening, to tell open unions (`"a" | string`). */
  allLeft: TypeNode[];
  allRight: TypeNode[];
  /** Matched members to compare structurally. */
  pairs: [TypeNode, TypeNode][];
  /** Unions only one side names, opened up to match their members. */
  opened: { before: string[]; after: string[] };
}

/**
 * A member that switched between interface and union is matched by name, unless opening it up
 * accounts for more of the other side's members (2025-11-25's JSONRPCResponse absorbing
 * JSONRPCError inside JSONRPCMessage): both plans are made and the closer one wins.
 */
export function planUnion(sides: Sides, before: TypeNode[], after: TypeNode[]): UnionPlan {
  const byName = plan(sides, before, after, false);
  const opened = plan(sides, before, after, true);
  return opened.left.length + opened.right.length < byName.left.length + byName.right.length ? opened : byName;
}

function plan(sides: Sides, ma: TypeNode[], mb: TypeNode[], openSwitched: boolean): UnionPlan {
  const opened = { before: [] as string[], after: [] as string[] };
  const left = flatten(sides, ma, "before", openSwitched, opened.before);
  const right = flatten(sides, mb, "after", openSwitched, opened.after);
  const result: UnionPlan = { left, right, allLeft: [...left], allRight: [...right], pairs: [], opened };
  matchPairs(left, right, (x, y) =>
    x.kind === "ref" && y.kind === "ref" ? sides.sameName(x.name, y.name, openSwitched) : sameAtom(x, y),
  );
  matchPairs(left, right, (x, y) => {
    if (sides.relation.relate(x, y) !== "same") return false;
    // Written inline on one side: compare, so the named side's differences (optional fields) show.
    if (x.kind !== "ref" || y.kind !== "ref") result.pairs.push([x, y]);
    return true;
  });
  for (const kind of ["object", "array"] as const) {
    const xs = left.filter((x) => x.kind === kind);
    const ys = right.filter((y) => y.kind === kind);
    if (xs.length !== 1 || ys.length !== 1) continue;
    const [x, y] = [xs[0] as TypeNode, ys[0] as TypeNode];
    result.pairs.push([x, y]);
    left.splice(left.indexOf(x), 1);
    right.splice(right.indexOf(y), 1);
  }
  return result;
}

/** Union members, with nested unions and unions only this side names spread out. */
function flatten(sides: Sides, nodes: TypeNode[], side: SideName, openSwitched: boolean, opened: string[]): TypeNode[] {
  const index = sides.index(side);
  return nodes.flatMap((node) => {
    if (node.kind === "ref" && index.form(node.name) === "union") {
      const oneSided = sides.oneSided(node.name, side);
      if (oneSided) opened.push(node.name);
      if (oneSided || (openSwitched && sides.switched(node.name))) {
        return flatten(sides, members(index.body(node.name)), side, openSwitched, opened);
      }
      return [node];
    }
    const shallow = sides.shallow(node, side);
    return shallow.kind === "union" ? flatten(sides, shallow.members, side, openSwitched, opened) : [shallow];
  });
}

/** Removes every pair `match` accepts from both lists (first match wins). */
function matchPairs(left: TypeNode[], right: TypeNode[], match: (x: TypeNode, y: TypeNode) => boolean): void {
  for (let i = 0; i < left.length; i++) {
    const j = right.findIndex((y) => match(left[i] as TypeNode, y));
    if (j < 0) continue;
    left.splice(i, 1);
    right.splice(j, 1);
    i--;
  }
}
