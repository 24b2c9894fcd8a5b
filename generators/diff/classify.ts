// Rules over the computed diff: each structural fact gets exactly one rule, and the rule's
// role becomes sides through the messages that carry the fact (carriers.ts).
import type { Direction, Side } from "../model/model.js";
import { otherSide, senderOf, type Carrier } from "./carriers.js";
import { placeName, type Delta } from "./deltas.js";
import type { Finding, FindingKind } from "./findings.js";
import { CAPABILITY_ROOTS } from "./model-index.js";
import type { Relation } from "./relation.js";
import { RULES, type Role, type RuleId } from "./rules.js";

/** The rule that applies to a fact. */
export function ruleFor(d: Delta): RuleId {
  switch (d.fact) {
    case "method-added":
      if (d.kind === "notification") return "NOTIFICATION_ADDED";
      return d.capability === null ? "REQUEST_ADDED_UNGATED" : "REQUEST_ADDED";
    case "method-removed":
      return d.kind === "notification" ? "NOTIFICATION_REMOVED" : "REQUEST_REMOVED";
    case "method-direction":
      return "METHOD_DIRECTION_CHANGED";
    case "method-kind":
      return "METHOD_KIND_CHANGED";
    case "method-delivery":
      return "REQUEST_DELIVERY_CHANGED";
    case "method-gate":
      if (d.kind === "notification") return "NOTIFICATION_GATE_CHANGED";
      if (d.before === null) return "REQUEST_GATED";
      return d.after === null ? "REQUEST_UNGATED" : "REQUEST_GATE_CHANGED";
    case "method-result":
      return byRelation(d.relation, ["RESULT_EQUIVALENT", "RESULT_WIDENED", "RESULT_NARROWED", "RESULT_CHANGED"]);
    case "method-marker":
    case "type-marker":
    case "field-marker":
    case "constant-marker":
      if (d.marker === "deprecated") return d.set ? "DEPRECATED" : "UNDEPRECATED";
      return d.set ? "MADE_INTERNAL" : "MADE_PUBLIC";
    case "type-added":
      return "TYPE_ADDED";
    case "type-removed":
      return "TYPE_REMOVED";
    case "type-renamed":
      return "TYPE_RENAMED";
    case "type-extracted":
      return "TYPE_EXTRACTED";
    case "type-inlined":
      return "TYPE_INLINED";
    case "type-changed":
      if (d.regrouped || d.relation === "same") return "TYPE_FORM_CHANGED";
      return byRelation(d.relation, ["TYPE_FORM_CHANGED", "TYPE_WIDENED", "TYPE_NARROWED", "TYPE_CHANGED"]);
    case "member-added":
      if (d.unreferenced) return "UNREFERENCED_UNION_CHANGED";
      if (d.literal === undefined) return "UNION_MEMBER_ADDED";
      return d.open ? "OPEN_ENUM_MEMBER_ADDED" : "ENUM_MEMBER_ADDED";
    case "member-removed":
      if (d.unreferenced) return "UNREFERENCED_UNION_CHANGED";
      if (d.literal === undefined) return "UNION_MEMBER_REMOVED";
      return d.open ? "OPEN_ENUM_MEMBER_REMOVED" : "ENUM_MEMBER_REMOVED";
    case "field-added":
      if (!d.optional) return "FIELD_ADDED_REQUIRED";
      return isCapability(d.place.owner) ? "CAPABILITY_ADDED" : "FIELD_ADDED_OPTIONAL";
    case "field-removed":
      if (!d.optional) return "FIELD_REMOVED_REQUIRED";
      return isCapability(d.place.owner) ? "CAPABILITY_REMOVED" : "FIELD_REMOVED_OPTIONAL";
    case "field-optional":
      return d.optional ? "FIELD_BECAME_OPTIONAL" : "FIELD_BECAME_REQUIRED";
    case "field-type":
      return byRelation(d.relation, [
        "FIELD_TYPE_EQUIVALENT",
        "FIELD_TYPE_WIDENED",
        "FIELD_TYPE_NARROWED",
        "FIELD_TYPE_CHANGED",
      ]);
    case "field-moved":
      return "FIELD_MOVED";
    case "field-envelope":
      return "ENVELOPE_FIELD_DECLARED";
    case "field-constraint":
      return byRelation(d.relation, [
        "CONSTRAINT_CHANGED",
        "CONSTRAINT_LOOSENED",
        "CONSTRAINT_TIGHTENED",
        "CONSTRAINT_CHANGED",
      ]);
    case "constant-added":
      return d.errorCode ? "ERROR_CODE_ADDED" : "CONSTANT_ADDED";
    case "constant-removed":
      return d.errorCode ? "ERROR_CODE_REMOVED" : "CONSTANT_REMOVED";
    case "constant-changed":
      if (d.protocolVersion) return "PROTOCOL_VERSION_CHANGED";
      return d.errorCode ? "ERROR_CODE_CHANGED" : "CONSTANT_CHANGED";
  }
}

function byRelation(relation: Relation, [same, wider, narrower, other]: [RuleId, RuleId, RuleId, RuleId]): RuleId {
  return { same, wider, narrower, incompatible: other }[relation];
}

function isCapability(owner: string): boolean {
  return CAPABILITY_ROOTS.includes(owner);
}

/** What a finding is about, before the rule's verdict. */
export interface Subject {
  kind: FindingKind;
  change: Finding["change"];
  name: string;
  before: Finding["before"];
  after: Finding["after"];
  detail: string;
  /** Declarations whose carriers decide sender and receiver. */
  declarations: string[];
  /** The type whose spec page the finding links to, and in which revision. */
  anchor: { type?: string; revision: "before" | "after" };
}

export function subjectOf(d: Delta): Subject {
  const after = { revision: "after" as const };
  const before = { revision: "before" as const };
  switch (d.fact) {
    case "method-added":
    case "method-removed": {
      const added = d.fact === "method-added";
      const gate = d.capability ? `gated by ${d.capability}` : "no capability gates it";
      return {
        ...method(d.kind, d.method, added ? "added" : "removed"),
        before: added ? null : d.signature,
        after: added ? d.signature : null,
        detail: `${arrows(d.directions)}; ${gate}`,
        declarations: [d.messageType],
        anchor: { type: d.messageType, ...(added ? after : before) },
      };
    }
    case "method-direction":
      return methodChange(d, arrows(d.before), arrows(d.after), `now ${arrows(d.after)} only`);
    case "method-kind":
      return methodChange(d, d.before, d.after, `now a ${d.after}`);
    case "method-delivery":
      return methodChange(d, d.before, d.after, `${arrows(d.directions)}: delivered as ${delivery(d.after)}`);
    case "method-gate":
      return methodChange(
        d,
        d.before,
        d.after,
        `${arrows(d.directions)}: ${d.after ? `gated by ${d.after}` : "no longer gated"}`,
      );
    case "method-result":
      return methodChange(d, d.before, d.after, d.detail);
    case "method-marker":
      return methodChange(d, d.set ? null : `@${d.marker}`, d.set ? `@${d.marker}` : null, `${d.messageType} marked`);
    case "type-added":
    case "type-removed": {
      const added = d.fact === "type-added";
      return {
        kind: "type",
        change: added ? "added" : "removed",
        name: d.name,
        before: added ? null : d.shape,
        after: added ? d.shape : null,
        detail: "",
        declarations: [d.name],
        anchor: { type: d.name, ...(added ? after : before) },
      };
    }
    case "type-renamed":
      return {
        kind: "type",
        change: "changed",
        name: d.after,
        before: d.before,
        after: d.after,
        detail: d.detail,
        declarations: [d.before, d.after],
        anchor: { type: d.after, ...after },
      };
    case "type-extracted":
    case "type-inlined": {
      const extracted = d.fact === "type-extracted";
      return {
        kind: "type",
        change: extracted ? "added" : "removed",
        name: d.name,
        before: extracted ? d.places.join(", ") : d.name,
        after: extracted ? d.name : d.places.join(", "),
        detail: `${extracted ? "names what was written inline at" : "now written inline at"} ${d.places.join(", ")}; ${d.detail}`,
        declarations: [d.name],
        anchor: { type: d.name, ...(extracted ? after : before) },
      };
    }
    case "type-changed":
      return {
        kind: "type",
        change: "changed",
        name: d.name,
        before: d.before,
        after: d.after,
        detail: d.detail,
        declarations: [d.name],
        anchor: { type: d.name, ...after },
      };
    case "type-marker":
      return {
        kind: "type",
        change: "changed",
        name: d.name,
        ...marked(d.marker, d.set),
        declarations: [d.name],
        anchor: { type: d.name, ...after },
      };
    case "member-added":
    case "member-removed": {
      const added = d.fact === "member-added";
      const literal = d.literal !== undefined;
      const field = d.place.path.length > 0;
      return {
        kind: literal ? "enum-member" : field ? fieldKind(d.place.owner) : "type",
        change: literal ? (added ? "added" : "removed") : "changed",
        name: literal ? `${placeName(d.place)}=${String(d.literal)}` : placeName(d.place),
        before: added ? null : (d.literal ?? d.member),
        after: added ? (d.literal ?? d.member) : null,
        detail: "",
        declarations: shownIn(d.place.owner, d.observedIn),
        anchor: { type: d.place.owner, ...(added ? after : before) },
      };
    }
    case "field-added":
    case "field-removed": {
      const added = d.fact === "field-added";
      return {
        ...field(d.place.owner, placeName(d.place), added ? "added" : "removed", d.observedIn, added),
        before: added ? null : d.type,
        after: added ? d.type : null,
        detail: d.optional ? "optional" : "required",
      };
    }
    case "field-optional":
      return {
        ...field(d.place.owner, placeName(d.place), "changed", d.observedIn, true),
        before: d.optional ? "required" : "optional",
        after: d.optional ? "optional" : "required",
        detail: "",
      };
    case "field-type":
      return {
        ...field(d.place.owner, placeName(d.place), "changed", d.observedIn, true),
        before: d.before,
        after: d.after,
        detail: d.detail,
      };
    case "field-constraint":
      return {
        ...field(d.place.owner, placeName(d.place), "changed", d.observedIn, true),
        before: d.before,
        after: d.after,
        detail: "",
      };
    case "field-moved":
      return {
        ...field(d.place.owner, placeName(d.place), "changed", d.observedIn, true),
        before: d.from.join(", "),
        after: placeName(d.place),
        detail: `now declared on ${d.place.owner}`,
      };
    case "field-envelope":
      return {
        ...field(d.place.owner, placeName(d.place), "changed", d.observedIn, true),
        before: d.declared ? null : d.envelope,
        after: d.declared ? d.envelope : null,
        detail: `${d.declared ? "now" : "no longer"} declared through ${d.envelope}; always present on the wire`,
      };
    case "field-marker":
      return {
        ...field(d.place.owner, placeName(d.place), "changed", d.observedIn, true),
        ...marked(d.marker, d.set),
      };
    case "constant-added":
    case "constant-removed":
    case "constant-changed":
      return {
        kind: "constant",
        change: d.fact === "constant-added" ? "added" : d.fact === "constant-removed" ? "removed" : "changed",
        name: d.name,
        before: d.before,
        after: d.after,
        detail: d.protocolVersion ? "protocol version" : d.errorCode ? "JSON-RPC error code" : "",
        declarations: [],
        anchor: { revision: d.fact === "constant-removed" ? "before" : "after" },
      };
    case "constant-marker":
      return {
        kind: "constant",
        change: "changed",
        name: d.name,
        ...marked(d.marker, d.set),
        declarations: [],
        anchor: after,
      };
  }
}

function method(kind: "request" | "notification", name: string, change: Finding["change"]) {
  return { kind: kind === "request" ? ("method" as const) : ("notification" as const), change, name };
}

function methodChange(
  d: Extract<Delta, { method: string }>,
  before: Finding["before"],
  after: Finding["after"],
  detail: string,
): Subject {
  return {
    ...method(d.kind, d.method, "changed"),
    before,
    after,
    detail,
    declarations: [d.messageType],
    anchor: { type: d.messageType, revision: "after" },
  };
}

function field(owner: string, name: string, change: Finding["change"], observedIn: string[], inAfter: boolean) {
  return {
    kind: fieldKind(owner),
    change,
    name,
    declarations: shownIn(owner, observedIn),
    anchor: { type: owner, revision: inAfter ? ("after" as const) : ("before" as const) },
  };
}

/** Where a fact shows decides who sends it; facts found outside declaration comparisons show in their owner. */
function shownIn(owner: string, observedIn: string[]): string[] {
  return observedIn.length > 0 ? observedIn : [owner];
}

function fieldKind(owner: string): FindingKind {
  return isCapability(owner) ? "capability" : "field";
}

function marked(marker: string, set: boolean) {
  return { before: set ? null : `@${marker}`, after: set ? `@${marker}` : null, detail: "" };
}

const ARROW: Record<Direction, string> = { clientToServer: "client → server", serverToClient: "server → client" };

function arrows(directions: Direction[]): string {
  return directions.map((d) => ARROW[d]).join(", ");
}

function delivery(value: string): string {
  return value === "inputRequired" ? "part of an input-required result" : "its own JSON-RPC message";
}

/** Sides whose code built on the old revision must act, by the rule's role. */
export function affectedSides(role: Role, d: Delta, carriers: Carrier[]): Side[] {
  const sides = new Set<Side>();
  const directions = "directions" in d ? d.directions : [];
  switch (role) {
    case "none":
      break;
    case "both":
      sides.add("client").add("server");
      break;
    case "caller":
    case "callee":
      for (const dir of directions) sides.add(role === "caller" ? senderOf(dir) : otherSide(senderOf(dir)));
      break;
    case "sender":
    case "receiver":
      if (directions.length > 0) {
        for (const dir of directions) sides.add(role === "sender" ? senderOf(dir) : otherSide(senderOf(dir)));
      } else if (carriers.length === 0) {
        // Nothing carries it in either model: nobody can be ruled out.
        sides.add("client").add("server");
      } else {
        for (const c of carriers) sides.add(role === "sender" ? c.sender : otherSide(c.sender));
      }
      break;
  }
  return (["client", "server"] as Side[]).filter((s) => sides.has(s));
}

export function severityOf(rule: RuleId) {
  return RULES[rule].severity;
}
