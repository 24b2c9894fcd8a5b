// Pieces `cancellation` and `progress`: each a notification and the directions it travels in,
// one rule for both.
import type { Protocol } from "../model.js";
import type { ProtocolSource } from "./source.js";

/** Cancellation or progress: the directions its notification travels in, where the revision has it. */
export function notified(source: ProtocolSource, key: "cancellation" | "progress"): Protocol[typeof key] {
  const method = source.table[key];
  const directions = source.directions(method);
  return directions.length > 0 ? { method, directions } : undefined;
}
