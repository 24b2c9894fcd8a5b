// Rules over the computed diff: each structural fact gets exactly one rule, and the rule's
// role becomes sides through the messages that carry the fact (carriers.ts).
import type { Side } from "../../model/model.js";
import type { Delta } from "../compare/deltas.js";
import { isCapability } from "../compare/model-index.js";
import type { Relation } from "../compare/relation.js";
import { otherSide, senderOf, type Carrier } from "./carriers.js";
import type { Role, RuleId } from "./rules.js";

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
