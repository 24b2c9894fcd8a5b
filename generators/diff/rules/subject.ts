// What a finding says about its structural fact: kind, name, before and after, detail, where
// it shows (for carriers) and which spec page it links to. The verdict is classify.ts's.
import type { Direction } from "../../model/model.js";
import { placeName, type Delta } from "../compare/deltas.js";
import { isCapability } from "../compare/model-index.js";
import type { Finding, FindingKind } from "./findings.js";

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

/** Directions in words: `client → server, server → client`. */
export function arrows(directions: Direction[]): string {
  return directions.map((d) => ARROW[d]).join(", ");
}

function delivery(value: string): string {
  return value === "inputRequired" ? "part of an input-required result" : "its own JSON-RPC message";
}
