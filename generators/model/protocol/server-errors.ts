// Piece `serverErrors`: how a server answers tool arguments that fail their schema, and an unknown
// resource, in this revision.
import type { Protocol } from "../model.js";
import type { ProtocolSource } from "./source.js";

/** How a server answers tool arguments that fail their schema, and an unknown resource, in this revision. */
export function serverErrors(source: ProtocolSource): Protocol["serverErrors"] {
  const errors = source.table.serverErrors;
  const { code: invalidParams } = source.errorConstant(errors.invalidParams);
  const { revision } = source.facts;
  return {
    toolArguments: errors.toolArgumentsAsResultIn.includes(revision) ? "toolResult" : "invalidParams",
    invalidParams,
    resourceNotFound: errors.resourceNotFoundAsInvalidParamsIn.includes(revision)
      ? invalidParams
      : errors.resourceNotFound,
  };
}
