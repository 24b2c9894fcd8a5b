// The structural diff's output: facts about what differs between two models, before any
// judgement. rules/classify.ts applies the rules to them; nothing here says "breaking".
import type { Delivery, Direction, LiteralValue } from "../../model/model.js";
import type { Relation } from "./relation.js";

export type MethodKind = "request" | "notification";
export type Marker = "deprecated" | "internal";

/** A field, or a type when `path` is empty: named `<owner>.<path…>` in reports. */
export interface Place {
  owner: string;
  path: string[];
}

export function placeName(place: Place): string {
  return place.owner + pathName(place.path);
}

/** `.params.name`, `.content[]`, `.experimental.*`. */
export function pathName(path: string[]): string {
  return path.map((segment) => (segment === "[]" ? segment : `.${segment}`)).join("");
}

interface MethodFact {
  method: string;
  kind: MethodKind;
  directions: Direction[];
  /** The request or notification declaration, for links. */
  messageType: string;
}

/** Facts found inside declarations carry the roots where they show (the declaring type among them). */
interface Observed {
  observedIn: string[];
}

export type Delta =
  | (MethodFact & { fact: "method-added" | "method-removed"; capability: string | null; signature: string })
  | (MethodFact & { fact: "method-direction"; before: Direction[]; after: Direction[] })
  | (MethodFact & { fact: "method-kind"; before: MethodKind; after: MethodKind })
  | (MethodFact & { fact: "method-delivery"; before: Delivery; after: Delivery })
  | (MethodFact & { fact: "method-gate"; before: string | null; after: string | null })
  | (MethodFact & { fact: "method-result"; relation: Relation; before: string; after: string; detail: string })
  | (MethodFact & { fact: "method-marker"; marker: Marker; set: boolean })
  | { fact: "type-added" | "type-removed"; name: string; shape: string }
  | { fact: "type-renamed"; before: string; after: string; detail: string }
  /** A type only one side has, standing for what the other side wrote inline at `places`. */
  | { fact: "type-extracted" | "type-inlined"; name: string; places: string[]; detail: string }
  | {
      fact: "type-changed";
      name: string;
      relation: Relation;
      before: string;
      after: string;
      detail: string;
      /** An interface↔union switch that the unions containing it absorb: no message changes. */
      regrouped: boolean;
    }
  | { fact: "type-marker"; name: string; marker: Marker; set: boolean }
  | (Observed & {
      fact: "member-added" | "member-removed";
      place: Place;
      member: string;
      literal?: LiteralValue;
      /** The union also admits the literal's whole primitive type (`"a" | "b" | string`). */
      open: boolean;
      /** The union is one nothing refers to, such as ClientRequest: it only lists types. */
      unreferenced: boolean;
    })
  | (Observed & { fact: "field-added" | "field-removed"; place: Place; optional: boolean; type: string })
  | (Observed & { fact: "field-optional"; place: Place; optional: boolean })
  | (Observed & { fact: "field-type"; place: Place; relation: Relation; before: string; after: string; detail: string })
  | (Observed & { fact: "field-moved"; place: Place; from: string[] })
  | (Observed & { fact: "field-envelope"; place: Place; declared: boolean; envelope: string })
  | (Observed & { fact: "field-marker"; place: Place; marker: Marker; set: boolean })
  | (Observed & { fact: "field-constraint"; place: Place; relation: Relation; before: string; after: string })
  | {
      fact: "constant-added" | "constant-removed" | "constant-changed";
      name: string;
      before: LiteralValue | null;
      after: LiteralValue | null;
      errorCode: boolean;
      protocolVersion: boolean;
    }
  | { fact: "constant-marker"; name: string; marker: Marker; set: boolean };

export type Fact = Delta["fact"];

/**
 * One delta per fact: the same change seen from several roots (a field of a base type in every
 * type that inherits it), or in several directions, becomes one delta listing them all.
 */
export function mergeDeltas(deltas: Delta[]): Delta[] {
  const merged = new Map<string, Delta>();
  for (const delta of deltas) {
    const key = identity(delta);
    const seen = merged.get(key);
    if (!seen) {
      merged.set(key, structuredClone(delta));
      continue;
    }
    if ("observedIn" in seen && "observedIn" in delta) seen.observedIn = union(seen.observedIn, delta.observedIn);
    if ("directions" in seen && "directions" in delta) seen.directions = union(seen.directions, delta.directions);
    if (seen.fact === "field-moved" && delta.fact === "field-moved") seen.from = union(seen.from, delta.from);
  }
  return [...merged.values()];
}

function identity(delta: Delta): string {
  const { ...rest } = delta as Record<string, unknown>;
  delete rest.observedIn;
  delete rest.directions;
  if (delta.fact === "field-moved") delete rest.from;
  return JSON.stringify(rest);
}

function union<T>(a: T[], b: T[]): T[] {
  return [...new Set([...a, ...b])].sort();
}
