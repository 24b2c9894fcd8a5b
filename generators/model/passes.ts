// The model passes in the order they run, each on what the ones before it made. The steps before
// them (parsing schema.ts, reading its declarations as written) are parse/parse-schema.ts's, since
// only parse/ drives ts-morph; it also lends the type checker to checkShapes.
import { buildEnvelopes, hasBatches } from "./envelopes.js";
import { ModelError } from "./errors.js";
import type { MethodInferences } from "./inference-table.js";
import { buildMethodMap } from "./method-map.js";
import { MODEL_VERSION, type Declaration, type Model } from "./model.js";
import { buildProtocol } from "./protocol/index.js";
import { resolveShapes } from "./resolve-shapes.js";

/** A revision's schema.ts as parse/ reads it, before any pass. */
export type ReadSchema = Pick<Model, "revision" | "source" | "conventions" | "constants" | "declarations">;

export function runPasses(
  read: ReadSchema,
  inferences: MethodInferences,
  /** Fails where a resolved shape differs from TypeScript's checker, which only parse/ holds. */
  checkShapes: (declarations: Declaration[]) => void,
): Model {
  // Inheritance: every object type's full property list (extends, Omit<>, intersections).
  const declarations = resolveShapes(read.declarations);
  // The same property lists as TypeScript's checker, before any pass relies on them.
  checkShapes(declarations);
  // Every message with its direction, result type and gating capability.
  const methods = buildMethodMap(declarations, inferences);
  // The JSON-RPC envelopes, told apart by their shapes.
  const envelopes = buildEnvelopes(declarations, inferences.messageUnion);
  if (!envelopes) throw new ModelError(`no ${inferences.messageUnion} union: cannot tell JSON-RPC messages apart`);
  // The protocol's mechanics and the facts its rules stand on.
  const protocol = buildProtocol(
    declarations,
    methods,
    read.constants,
    inferences.protocol,
    { revision: read.revision, batches: hasBatches(envelopes) },
    inferences.paramCapabilities,
  );
  const { revision, source, conventions, constants } = read;
  return {
    modelVersion: MODEL_VERSION,
    revision,
    source,
    conventions,
    constants,
    declarations,
    envelopes,
    methods,
    protocol,
  };
}
