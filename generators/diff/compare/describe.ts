// One short phrase per structural fact, for the details that spell out a rename, an
// interface↔union switch or a changed field type ("+ default?: string; id now optional").
import type { TypeNode } from "../../model/model.js";
import { pathName, placeName, type Delta, type Place } from "./deltas.js";

/** The structural differences between a type of the old model and one of the new, as one line. */
export type Explain = (before: TypeNode, after: TypeNode, expand?: boolean) => string;

/** A field relative to the type being explained: `.params.name` reads as `params.name`. */
function relative(place: Place): string {
  return place.path.length > 0 ? pathName(place.path).replace(/^\./, "") : placeName(place) || "(type)";
}

export function describeDelta(d: Delta): string {
  switch (d.fact) {
    case "field-added":
      return `+ ${relative(d.place)}${d.optional ? "?" : ""}: ${d.type}`;
    case "field-removed":
      return `- ${relative(d.place)}`;
    case "field-optional":
      return `${relative(d.place)} now ${d.optional ? "optional" : "required"}`;
    case "field-type":
      return `${relative(d.place)}: ${d.before} → ${d.after}`;
    case "field-constraint":
      return `${relative(d.place)}: ${d.before} → ${d.after}`;
    case "field-marker":
      return `${relative(d.place)} ${d.set ? "" : "no longer "}@${d.marker}`;
    case "field-moved":
      return `${relative(d.place)} moved from ${d.from.join(", ")}`;
    case "field-envelope":
      return `${relative(d.place)} ${d.declared ? "now" : "no longer"} declared via ${d.envelope}`;
    case "member-added":
      return `${d.place.path.length > 0 ? `${relative(d.place)}: ` : ""}+ ${d.member}`;
    case "member-removed":
      return `${d.place.path.length > 0 ? `${relative(d.place)}: ` : ""}- ${d.member}`;
    case "type-changed":
      return `${d.before} → ${d.after}`;
    case "type-marker":
      return `${d.set ? "" : "no longer "}@${d.marker}`;
    default:
      // Method and constant facts never occur inside a type.
      return d.fact;
  }
}
