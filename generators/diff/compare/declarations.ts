// The structural diff of declarations, as users see them: resolved shapes after inheritance
// and Omit<>, compared field by field. Every fact is attributed to the declaration that declares
// the field (a field of a base type is one fact, observed in each type that inherits it).
// A type only the new side names that stands where the old side wrote a type inline (inline
// `params` split out into `*Params`, `object` rewritten as `JSONObject`) is an extraction: its
// structure is compared with what it replaces, so only real differences are reported.
import type { Declaration, ObjectNode, Property, TypeNode } from "../../model/model.js";
import { effectiveConstraints, printConstraints, relateConstraints } from "./constraints.js";
import { placeName, type Delta, type Marker, type Place } from "./deltas.js";
import { describeDelta } from "./describe.js";
import { printDeclaration, printNode } from "./display.js";
import { formChange } from "./form-change.js";
import { declaredBy, type ModelIndex } from "./model-index.js";
import { members, sameAtom, type Sides } from "./sides.js";
import { planUnion } from "./union-plan.js";

export const MARKERS: Marker[] = ["deprecated", "internal"];

interface Context {
  /** The declaration being compared (its new name): facts elsewhere are observed in it. */
  root: string;
  /** Inside an extraction: the fields' new declaring type is implied, so moves are not facts. */
  quiet: boolean;
  /** Comparing a union that nothing refers to (see `unreferenced`). */
  unreferenced: boolean;
}

interface Occurrences {
  places: Set<string>;
  /** Whether every occurrence had exactly the structure of the named type. */
  equal: boolean;
}

const UNKNOWN: TypeNode = { kind: "primitive", name: "unknown" };

/** Detail lists stop after this many differences. */
const MAX_EXPLAINED = 6;

export class DeclarationDiff {
  private sink: Delta[] = [];
  private scratch = false;
  private readonly before: ModelIndex;
  private readonly after: ModelIndex;
  private readonly extracted = new Map<string, Occurrences>();
  private readonly inlined = new Map<string, Occurrences>();

  constructor(private readonly sides: Sides) {
    this.before = sides.before;
    this.after = sides.after;
  }

  /** Every declaration fact between the two models. */
  run(): Delta[] {
    for (const name of this.after.names()) if (this.before.has(name)) this.compareDeclaration(name, name);
    for (const [oldName, newName] of this.sides.renames) {
      const differences = this.capture(() => this.compareDeclaration(oldName, newName));
      this.sink.push(...differences);
      this.sink.push({
        fact: "type-renamed",
        before: oldName,
        after: newName,
        detail: differences.length === 0 ? "equal structure" : `differences: ${explainAll(differences)}`,
      });
    }
    for (const name of this.after.names()) {
      if (!this.sides.oneSided(name, "after")) continue;
      const occurrences = this.extracted.get(name);
      const decl = this.after.decl(name) as Declaration;
      this.sink.push(
        occurrences
          ? extraction("type-extracted", name, occurrences)
          : { fact: "type-added", name, shape: printDeclaration(decl) },
      );
    }
    for (const name of this.before.names()) {
      if (!this.sides.oneSided(name, "before")) continue;
      const occurrences = this.inlined.get(name);
      const decl = this.before.decl(name) as Declaration;
      this.sink.push(
        occurrences
          ? extraction("type-inlined", name, occurrences)
          : { fact: "type-removed", name, shape: printDeclaration(decl) },
      );
    }
    return this.sink;
  }

  private compareDeclaration(oldName: string, newName: string): void {
    const a = this.before.decl(oldName) as Declaration;
    const b = this.after.decl(newName) as Declaration;
    for (const marker of MARKERS) {
      if (!a[marker] !== !b[marker]) this.sink.push({ fact: "type-marker", name: newName, marker, set: !!b[marker] });
    }
    const context: Context = { root: newName, quiet: false, unreferenced: this.unreferenced(oldName, newName) };
    const pa: Place = { owner: oldName, path: [] };
    const pb: Place = { owner: newName, path: [] };
    this.compareConstraints(a, b, pa, pb, context);
    const formA = this.before.form(oldName);
    const formB = this.after.form(newName);
    if (formA === "object" && formB === "object") {
      const envelopes = { before: this.before.envelopeShape(oldName), after: this.after.envelopeShape(newName) };
      this.compareObjects(
        this.objectOf(this.before, oldName),
        this.objectOf(this.after, newName),
        pa,
        pb,
        context,
        envelopes,
      );
    } else if (a.kind === "alias" && b.kind === "alias") {
      // Two aliases compare by what they say (`A | B` against `A`), whatever shapes they resolve to.
      this.compareTypes(a.type, b.type, pa, pb, context);
    } else if (formA !== "object" && formB !== "object") {
      this.compareTypes(this.before.body(oldName), this.after.body(newName), pa, pb, context);
    } else {
      const change = formChange(this.sides, oldName, newName, (x, y, expand) => this.explain(x, y, expand));
      this.sink.push(change.delta);
      if (change.oldShape) this.note(this.extracted, change.oldShape, `${oldName} (old shape)`, true);
    }
  }

  /** A union nothing refers to only lists types (ClientRequest, ServerResult): it carries no message itself. */
  private unreferenced(oldName: string, newName: string): boolean {
    const unused = (index: ModelIndex, name: string) => {
      const uses = index.usesOf(name);
      return uses.unions.length === 0 && !uses.elsewhere && name !== index.model.envelopes.union;
    };
    return unused(this.before, oldName) && unused(this.after, newName);
  }

  private objectOf(index: ModelIndex, name: string): ObjectNode {
    return index.normalize(index.body(name)) as ObjectNode;
  }

  private compareObjects(
    a: ObjectNode,
    b: ObjectNode,
    pa: Place,
    pb: Place,
    context: Context,
    envelopes?: { before?: { properties: Property[] }; after?: { properties: Property[] } },
  ): void {
    const names = [...a.properties, ...b.properties].map((p) => p.name).filter((n, i, all) => all.indexOf(n) === i);
    for (const name of names) {
      const p = a.properties.find((x) => x.name === name);
      const q = b.properties.find((x) => x.name === name);
      if (p && q) {
        this.compareProperties(p, q, child(pa, p), child(pb, q), context);
      } else if (p) {
        const envelope = envelopes?.after?.properties.find((x) => x.name === name);
        this.sink.push(
          envelope
            ? {
                fact: "field-envelope",
                place: child(pa, p),
                declared: false,
                envelope: declaredBy(envelope) ?? "",
                ...this.seen(context),
              }
            : {
                fact: "field-removed",
                place: child(pa, p),
                optional: p.optional,
                type: printNode(p.type),
                ...this.seen(context),
              },
        );
      } else if (q) {
        const envelope = envelopes?.before?.properties.find((x) => x.name === name);
        this.sink.push(
          envelope
            ? {
                fact: "field-envelope",
                place: child(pb, q),
                declared: true,
                envelope: declaredBy(envelope) ?? "",
                ...this.seen(context),
              }
            : {
                fact: "field-added",
                place: child(pb, q),
                optional: q.optional,
                type: printNode(q.type),
                ...this.seen(context),
              },
        );
      }
    }
    const ia = a.indexSignature;
    const ib = b.indexSignature;
    const [sa, sb] = [anyKey(pa), anyKey(pb)];
    if (ia && ib) this.compareTypes(ia.type, ib.type, sa, sb, context);
    else if (ia)
      this.sink.push({
        fact: "field-removed",
        place: sa,
        optional: true,
        type: printNode(ia.type),
        ...this.seen(context),
      });
    else if (ib)
      this.sink.push({
        fact: "field-added",
        place: sb,
        optional: true,
        type: printNode(ib.type),
        ...this.seen(context),
      });
  }

  private compareProperties(p: Property, q: Property, pa: Place, pb: Place, context: Context): void {
    const seen = this.seen(context);
    const oldOwner = this.sides.renames.get(pa.owner) ?? pa.owner;
    if (!context.quiet && placeName({ ...pa, owner: oldOwner }) !== placeName(pb)) {
      this.sink.push({ fact: "field-moved", place: pb, from: [placeName(pa)], ...seen });
    }
    for (const marker of MARKERS) {
      if (!p[marker] !== !q[marker])
        this.sink.push({ fact: "field-marker", place: pb, marker, set: !!q[marker], ...seen });
    }
    if (p.optional !== q.optional) this.sink.push({ fact: "field-optional", place: pb, optional: q.optional, ...seen });
    this.compareConstraints(p, q, pa, pb, context);
    this.compareTypes(p.type, q.type, pa, pb, context);
  }

  private compareConstraints(
    p: Pick<Property, "constraints"> & { type?: TypeNode },
    q: Pick<Property, "constraints"> & { type?: TypeNode },
    pa: Place,
    pb: Place,
    context: Context,
  ): void {
    const ca = effectiveConstraints(p.constraints, p.type ?? UNKNOWN, this.before.model);
    const cb = effectiveConstraints(q.constraints, q.type ?? UNKNOWN, this.after.model);
    const relation = relateConstraints(ca, cb);
    if (relation === "same") return;
    this.sink.push({
      fact: "field-constraint",
      place: pb,
      relation,
      before: printConstraints(ca),
      after: printConstraints(cb),
      ...this.seen(context),
    });
  }

  /** Compares two type expressions standing at the same place. */
  private compareTypes(a: TypeNode, b: TypeNode, pa: Place, pb: Place, context: Context): void {
    // The same declaration on both sides: its own changes, an interface↔union switch included, are reported on it.
    if (a.kind === "ref" && b.kind === "ref" && this.sides.sameName(a.name, b.name, false)) return;
    if (b.kind === "ref" && this.sides.oneSided(b.name, "after") && a.kind !== "ref") {
      const sub = { owner: b.name, path: [] };
      const differences = this.capture(() =>
        this.compareTypes(a, this.after.body(b.name), pa, sub, { ...context, quiet: true }),
      );
      this.sink.push(...differences);
      this.note(this.extracted, b.name, placeName(pa), differences.length === 0);
      return;
    }
    if (a.kind === "ref" && this.sides.oneSided(a.name, "before") && b.kind !== "ref") {
      const sub = { owner: a.name, path: [] };
      const differences = this.capture(() =>
        this.compareTypes(this.before.body(a.name), b, sub, pb, { ...context, quiet: true }),
      );
      this.sink.push(...differences);
      this.note(this.inlined, a.name, placeName(pb), differences.length === 0);
      return;
    }
    const sa = this.sides.unionOrShallow(a, "before");
    const sb = this.sides.unionOrShallow(b, "after");
    if (sa.kind === "union" || sb.kind === "union") {
      this.compareUnions(members(sa), members(sb), pa, pb, context);
    } else if (sa.kind === "object" && sb.kind === "object") {
      this.compareObjects(sa, sb, pa, pb, context);
    } else if (sa.kind === "array" && sb.kind === "array") {
      this.compareTypes(sa.items, sb.items, items(pa), items(pb), context);
    } else if (sa.kind === "intersection" && sb.kind === "intersection" && sa.members.length === sb.members.length) {
      sa.members.forEach((m, i) => this.compareTypes(m, sb.members[i] as TypeNode, pa, pb, context));
    } else if (!sameAtom(sa, sb)) {
      this.leaf(a, b, pa, pb, context);
    }
  }

  /** Members matched across the two unions are compared; the others were removed or added. */
  private compareUnions(ma: TypeNode[], mb: TypeNode[], pa: Place, pb: Place, context: Context): void {
    const plan = planUnion(this.sides, ma, mb);
    const differences = this.capture(() => {
      for (const [x, y] of plan.pairs) this.compareTypes(x, y, pa, pb, context);
      for (const [list, fact, place, all] of [
        [plan.left, "member-removed", pa, plan.allLeft],
        [plan.right, "member-added", pb, plan.allRight],
      ] as const) {
        for (const member of list) {
          this.sink.push({
            fact,
            place,
            member: printNode(member),
            ...(member.kind === "literal" ? { literal: member.value } : {}),
            open:
              member.kind === "literal" && all.some((m) => m.kind === "primitive" && m.name === typeof member.value),
            unreferenced: context.unreferenced,
            ...this.seen(context),
          });
        }
      }
    });
    this.sink.push(...differences);
    for (const name of plan.opened.after) this.note(this.extracted, name, placeName(pa), differences.length === 0);
    for (const name of plan.opened.before) this.note(this.inlined, name, placeName(pb), differences.length === 0);
  }

  /** A change that does not decompose into fields or members: classified by value sets. */
  private leaf(a: TypeNode, b: TypeNode, pa: Place, pb: Place, context: Context): void {
    const relation = this.sides.relation.relate(a, b);
    const explained = this.scratch ? "" : this.explain(a, b);
    // An explanation that only restates the two types adds nothing.
    const detail = explained === `${printNode(a)} → ${printNode(b)}` ? "" : explained;
    if (pb.path.length === 0) {
      this.sink.push({
        fact: "type-changed",
        name: pb.owner,
        relation,
        before: printNode(a),
        after: printNode(b),
        detail,
        regrouped: false,
      });
    } else {
      this.sink.push({
        fact: "field-type",
        place: pb,
        relation,
        before: printNode(a),
        after: printNode(b),
        detail,
        ...this.seen(context),
      });
    }
  }

  /**
   * The differences between a type of the old model and one of the new, as one line (for
   * details); `expand` compares named types by their structure even where they face a union.
   */
  explain(a: TypeNode, b: TypeNode, expand = false): string {
    // A named type is explained by its structure, unless it faces a union it may be a member of.
    const open = (node: TypeNode, other: TypeNode, index: ModelIndex) =>
      node.kind === "ref" && (expand || other.kind !== "union") ? index.body(node.name) : node;
    const pa: Place = { owner: "", path: [] };
    const differences = this.capture(
      () =>
        this.compareTypes(open(a, b, this.before), open(b, a, this.after), pa, pa, {
          root: "",
          quiet: true,
          unreferenced: false,
        }),
      true,
    );
    return explainAll(differences);
  }

  /** Runs `fn` with a fresh sink and returns what it emitted; a scratch run records nothing else. */
  private capture(fn: () => void, scratch = this.scratch): Delta[] {
    const saved = this.sink;
    const savedScratch = this.scratch;
    this.sink = [];
    this.scratch = scratch;
    try {
      fn();
      return this.sink;
    } finally {
      this.sink = saved;
      this.scratch = savedScratch;
    }
  }

  private note(map: Map<string, Occurrences>, name: string, place: string, equal: boolean): void {
    if (this.scratch) return;
    const seen = map.get(name) ?? { places: new Set<string>(), equal: true };
    seen.places.add(place);
    seen.equal &&= equal;
    map.set(name, seen);
  }

  /** The root a fact shows in (the declaring type itself included: carriers are looked up per root). */
  private seen(context: Context): { observedIn: string[] } {
    return { observedIn: context.root ? [context.root] : [] };
  }
}

function extraction(fact: "type-extracted" | "type-inlined", name: string, occurrences: Occurrences): Delta {
  const places = [...occurrences.places].sort();
  const detail = occurrences.equal
    ? "same structure as what it replaces"
    : "differs from what it replaces; the differences are reported as field changes";
  return { fact, name, places, detail };
}

function explainAll(deltas: Delta[]): string {
  const lines = deltas.map(describeDelta);
  return lines.length > MAX_EXPLAINED
    ? `${lines.slice(0, MAX_EXPLAINED).join("; ")}; … (${lines.length - MAX_EXPLAINED} more)`
    : lines.join("; ");
}

function child(place: Place, p: Property): Place {
  const from = declaredBy(p);
  return from ? { owner: from, path: [p.name] } : { owner: place.owner, path: [...place.path, p.name] };
}

/** The values of an index signature: `Type.field.*`. */
function anyKey(place: Place): Place {
  return { owner: place.owner, path: [...place.path, "*"] };
}

/** The items of an array: `Type.field[]`. */
function items(place: Place): Place {
  return { owner: place.owner, path: [...place.path, "[]"] };
}
