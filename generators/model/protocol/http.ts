// Piece `http`: how the revision travels over Streamable HTTP, sessions opened by the handshake or
// stateless requests, with the stateless binding's param-header entry checked against the schema.
import { ModelError } from "../errors.js";
import type { HttpBinding, ParamHeaders, Protocol, Shape } from "../model.js";
import type { ProtocolSource } from "./source.js";

/** Sessions where the handshake opens them; stateless where requests carry the `_meta` envelope. */
export function http(source: ProtocolSource, protocol: Protocol): HttpBinding | undefined {
  const table = source.table.http;
  if (protocol.handshake) {
    return {
      kind: "sessions",
      handshake: protocol.handshake.request,
      primedStreams: table.sessions.primedStreamsIn.includes(source.facts.revision),
      batches: source.facts.batches,
    };
  }
  const version = protocol.requestMeta?.fields.find((f) => f.state === "protocolVersion");
  if (!version || !protocol.unsupportedVersion || !protocol.missingCapability) return undefined;
  const nameFields: Record<string, string> = {};
  for (const [method, field] of Object.entries(table.stateless.nameFields)) {
    const entry = source.request(method);
    if (!entry) continue;
    if (!source.shapeOf(entry.params?.type)?.properties.some((p) => p.name === field))
      throw new ModelError(`spec/method-inferences.json: ${method} params have no field ${field}`);
    nameFields[method] = field;
  }
  return {
    kind: "stateless",
    versionMeta: version.field,
    nameFields,
    headerMismatch: source.errorConstant(table.stateless.headerMismatch),
    missingCapability: { constant: protocol.missingCapability.constant, code: protocol.missingCapability.code },
    unsupportedVersion: { constant: protocol.unsupportedVersion.constant, code: protocol.unsupportedVersion.code },
    legacyHandshake: table.stateless.legacyHandshake,
    paramHeaders: checkParamHeaders(source, table.stateless.paramHeaders),
  };
}

/** The param-headers entry, once the fields it names are found in the listing and the call. */
function checkParamHeaders(source: ProtocolSource, entry: ParamHeaders): ParamHeaders {
  const field = (shape: Shape | undefined, name: string, where: string) => {
    const found = shape?.properties.find((p) => p.name === name);
    if (!found) throw new ModelError(`spec/method-inferences.json: ${where} has no field ${name}`);
    return found.type;
  };
  const listed = field(source.shapeOf(source.request(entry.list)?.result), entry.items, `the ${entry.list} result`);
  field(source.shapeOf(listed.kind === "array" ? listed.items : undefined), entry.schema, `an item of ${entry.items}`);
  const call = source.shapeOf(source.request(entry.call)?.params?.type);
  field(call, entry.name, `${entry.call} params`);
  field(call, entry.arguments, `${entry.call} params`);
  const { annotation, list, items, schema, name } = entry;
  return { annotation, list, items, schema, call: entry.call, name, arguments: entry.arguments };
}
