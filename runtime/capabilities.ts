// Capabilities objects as generated clients and servers build and read them: the ones the
// handlers present declare (each revision's HANDLER_CAPABILITIES table, handed in as data) put
// together with the user's own, deep merges of them, whether some are declared, and which one
// gates a method. The same for every revision, so written once here rather than in each
// generated client.ts, server.ts and registry.ts.
import type { CapabilityFact } from "./rules/facts.js";

type Json = { [key: string]: unknown };

/** Handler name → the capability its presence declares: the path of keys to it, and its value. */
export type HandlerCapabilities = Readonly<Record<string, readonly [readonly string[], unknown]>>;

/**
 * How the user's capabilities and those the handlers declare come together; the user's win
 * either way. "merge" (a server): the handlers' are merged under the user's, objects merging
 * deeply, so `capabilities` may add to what a handler declares (`listChanged`). "fill" (a
 * client): the user's are kept as given, a handler's value set only where the user gave none.
 */
export type CapabilityMode = "merge" | "fill";

/**
 * The capabilities a side declares: `base` (the user's, copied as JSON so the result shares
 * nothing with them) with those the handlers present in `handlers` declare by `table`.
 */
export function declareCapabilities<C extends object>(
  base: C,
  handlers: object,
  table: HandlerCapabilities,
  mode: CapabilityMode,
): C {
  const own = JSON.parse(JSON.stringify(base)) as Json;
  return (
    mode === "merge" ? mergeCapabilities(implied({}, handlers, table, true), own) : implied(own, handlers, table, false)
  ) as C;
}

/**
 * Sets into `into` the capability of each handler present; `overwrite` says whether a value
 * already there gives way. A path through a value that is not an object replaces it with one.
 */
function implied(into: Json, handlers: object, table: HandlerCapabilities, overwrite: boolean): Json {
  for (const [name, [path, value]] of Object.entries(table)) {
    if ((handlers as Json)[name] === undefined) continue;
    let node = into;
    path.forEach((key, i) => {
      if (i === path.length - 1) {
        // A copy: a later path through this value must not change the table, shared by every instance.
        if (overwrite || node[key] === undefined) node[key] = copy(value);
      } else {
        if (typeof node[key] !== "object" || node[key] === null) node[key] = {};
        node = node[key] as Json;
      }
    });
  }
  return into;
}

function copy(value: unknown): unknown {
  return typeof value === "object" && value !== null ? JSON.parse(JSON.stringify(value)) : value;
}

/** Two capabilities objects merged: `over` wins, plain objects (not arrays) merge key by key. */
export function mergeCapabilities(under: Json, over: Json): Json {
  const out: Json = { ...under };
  for (const [key, value] of Object.entries(over)) {
    const below = out[key];
    out[key] = isPlain(below) && isPlain(value) ? mergeCapabilities(below, value) : value;
  }
  return out;
}

function isPlain(value: unknown): value is Json {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/**
 * Whether `capabilities` declares every setting of `wanted` (a one-path object such as
 * `{ tools: { listChanged: true } }`): each leaf equal, not merely present as the rules'
 * `declares` asks.
 */
export function declaresAll(capabilities: Json, wanted: Json): boolean {
  for (const [key, value] of Object.entries(wanted)) {
    const have = capabilities[key];
    if (typeof value === "object" && value !== null) {
      if (typeof have !== "object" || have === null || !declaresAll(have as Json, value as Json)) return false;
    } else if (have !== value) return false;
  }
  return true;
}

/** The capability gating a method of one of the generated method-info maps (methods.ts `*_INFO`), if any. */
export function gatingCapability(
  info: { readonly [method: string]: { readonly capability: CapabilityFact | null } | undefined },
  method: string,
): CapabilityFact | null | undefined {
  return info[method]?.capability;
}
