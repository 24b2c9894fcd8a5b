// Piece `inputRequired`: the multi round-trip result, the marker that tells it apart, and the
// fields carrying input requests, input responses and request state.
import { ModelError } from "../errors.js";
import type { Protocol } from "../model.js";
import type { ProtocolSource } from "./source.js";

/** Multi round-trip input, where the revision declares its result; some request params must carry the responses. */
export function inputRequired(source: ProtocolSource): Protocol["inputRequired"] {
  const ir = source.table.inputRequired;
  const decl = source.byName.get(ir.result);
  if (!decl) return undefined;
  const [markerField, markerValue] = Object.entries(ir.marker)[0] ?? [];
  if (markerField === undefined || markerValue === undefined) throw new ModelError("inputRequired needs a marker");
  source.bind(
    decl.resolved,
    { [ir.requests]: "inputRequests", [ir.state]: "requestState", [markerField]: "marker" },
    ir.result,
  );
  const retried = source.methods.some((m) =>
    source.shapeOf(m.params?.type)?.properties.some((p) => p.name === ir.responses),
  );
  if (!retried) throw new ModelError(`spec/method-inferences.json: no request params carry ${ir.responses}`);
  return {
    result: ir.result,
    marker: { field: markerField, value: markerValue },
    requests: ir.requests,
    responses: ir.responses,
    state: ir.state,
  };
}
