// The structural diff of the method maps: per wire method, its directions, kind, delivery,
// gating capability, result type and markers. Params are part of the message type and are
// compared with it (declarations.ts), where the declaring type of each field is known.
import type { CapabilityRef, Direction, MethodEntry } from "../../model/model.js";
import { MARKERS } from "./declarations.js";
import type { Delta, MethodKind } from "./deltas.js";
import type { Explain } from "./describe.js";
import { printNode } from "./display.js";
import type { Sides } from "./sides.js";

export function compareMethods(sides: Sides, explain: Explain): Delta[] {
  const { before, after } = sides;
  const deltas: Delta[] = [];
  const names = [...before.model.methods, ...after.model.methods]
    .map((m) => m.method)
    .filter((m, i, all) => all.indexOf(m) === i);
  for (const method of names) {
    const a = before.model.methods.filter((m) => m.method === method);
    const b = after.model.methods.filter((m) => m.method === method);
    const dirsA = directions(a);
    const dirsB = directions(b);
    const first = (b[0] ?? a[0]) as MethodEntry;
    if (a.length > 0 && b.length > 0 && !dirsA.some((d) => dirsB.includes(d))) {
      deltas.push({ ...fact(first, dirsB), fact: "method-direction", before: dirsA, after: dirsB });
      continue;
    }
    for (const m of a) if (!dirsB.includes(m.direction)) deltas.push(presence("method-removed", m));
    for (const m of b) if (!dirsA.includes(m.direction)) deltas.push(presence("method-added", m));
    for (const m of a) {
      const n = b.find((x) => x.direction === m.direction);
      if (n) deltas.push(...compareEntries(m, n, sides, explain));
    }
  }
  return deltas;
}

function compareEntries(a: MethodEntry, b: MethodEntry, sides: Sides, explain: Explain): Delta[] {
  const base = fact(b, [b.direction]);
  const deltas: Delta[] = [];
  if (a.kind !== b.kind) deltas.push({ ...base, fact: "method-kind", before: a.kind, after: b.kind });
  if (a.delivery !== b.delivery)
    deltas.push({ ...base, fact: "method-delivery", before: a.delivery, after: b.delivery });
  const gateA = capability(a.capability);
  const gateB = capability(b.capability);
  if (gateA !== gateB) deltas.push({ ...base, fact: "method-gate", before: gateA, after: gateB });
  if (a.result && b.result) {
    // The same named result type is compared as a type; only a different type expression is a fact here.
    const sameType =
      a.result.kind === "ref" && b.result.kind === "ref" && sides.sameName(a.result.name, b.result.name, true);
    if (!sameType && printNode(a.result) !== printNode(b.result)) {
      deltas.push({
        ...base,
        fact: "method-result",
        relation: sides.relation.relate(a.result, b.result),
        before: printNode(a.result),
        after: printNode(b.result),
        detail: explain(a.result, b.result),
      });
    }
  }
  const declA = sides.before.decl(a.type);
  const declB = sides.after.decl(b.type);
  for (const marker of MARKERS) {
    if (!declA?.[marker] !== !declB?.[marker]) {
      deltas.push({ ...base, fact: "method-marker", marker, set: !!declB?.[marker] });
    }
  }
  return deltas;
}

function fact(m: MethodEntry, dirs: Direction[]) {
  return { method: m.method, kind: m.kind as MethodKind, directions: dirs, messageType: m.type };
}

function presence(which: "method-added" | "method-removed", m: MethodEntry): Delta {
  const result = m.result ? ` → ${printNode(m.result)}` : "";
  return {
    ...fact(m, [m.direction]),
    fact: which,
    capability: capability(m.capability),
    signature: `${m.type}${result}`,
  };
}

function directions(list: MethodEntry[]): Direction[] {
  return [...new Set(list.map((m) => m.direction))].sort();
}

/** `server:resources.subscribe`, as spec/method-inferences.json writes it. */
export function capability(ref: CapabilityRef | null): string | null {
  return ref ? `${ref.side}:${ref.path.join(".")}` : null;
}
