// Piece `resultTypes`: the kinds of result a client recognises, from rule-facts.ts, checked to
// admit the result kinds the pieces before it name.
import type { ProtocolTable } from "../inference-table.js";
import type { LiteralValue, Protocol } from "../model.js";
import { buildResultTypes, type SchemaFacts } from "../rule-facts.js";

/** The revision's result kinds, which must admit every kind `resultDefaults` and `inputRequired` name. */
export function resultTypes(
  schema: SchemaFacts,
  table: ProtocolTable["resultTypes"],
  protocol: Protocol,
): Protocol["resultTypes"] {
  return buildResultTypes(schema, table, namedResultKinds(protocol));
}

/** The result kinds other pieces name, which the revision's result types must admit. */
function namedResultKinds(protocol: Protocol): { field: string; value: LiteralValue }[] {
  return [
    ...(protocol.resultDefaults?.fields ?? []),
    ...(protocol.inputRequired ? [protocol.inputRequired.marker] : []),
  ];
}
