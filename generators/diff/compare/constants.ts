// The structural diff of constants. Numeric constants are JSON-RPC error codes (the only
// numbers the protocol names); a string constant holding the revision itself is the protocol
// version peers negotiate.
import type { Constant, Model } from "../../model/model.js";
import { MARKERS } from "./declarations.js";
import type { Delta } from "./deltas.js";

export function compareConstants(before: Model, after: Model): Delta[] {
  const deltas: Delta[] = [];
  const names = [...before.constants, ...after.constants]
    .map((c) => c.name)
    .filter((n, i, all) => all.indexOf(n) === i);
  for (const name of names) {
    const a = before.constants.find((c) => c.name === name);
    const b = after.constants.find((c) => c.name === name);
    const kind = {
      errorCode: typeof (b ?? a)?.value === "number",
      protocolVersion: a?.value === before.revision || b?.value === after.revision,
    };
    if (!a || !b) {
      const fact = a ? "constant-removed" : "constant-added";
      deltas.push({ fact, name, before: a?.value ?? null, after: b?.value ?? null, ...kind });
      continue;
    }
    if (a.value !== b.value) deltas.push({ fact: "constant-changed", name, before: a.value, after: b.value, ...kind });
    deltas.push(...markers(a, b));
  }
  return deltas;
}

function markers(a: Constant, b: Constant): Delta[] {
  return MARKERS.filter((m) => !a[m] !== !b[m]).map((marker) => ({
    fact: "constant-marker",
    name: b.name,
    marker,
    set: !!b[marker],
  }));
}
