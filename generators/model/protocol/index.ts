// Pass: the protocol's mechanics as this revision spells them (handshake or discovery, the
// per-request `_meta` envelope, multi round-trip input, cancellation, progress), from the
// reviewed table in spec/method-inferences.json, and with ../rule-facts.ts's pieces the whole of
// the model's `protocol` part. This module owns the list of pieces in the model's key order; each
// piece is built in the file named for it, over one ProtocolSource (source.ts). An entry applies
// where its methods and types exist in the revision; a field it names that the revision lacks is
// an error, so the table stays true.
import type { ParamCapabilityEntry, ProtocolTable } from "../inference-table.js";
import type { Declaration, LiteralValue, MethodEntry, Protocol } from "../model.js";
import {
  buildContentMime,
  buildExtensionIds,
  buildRootUris,
  buildSamplingTools,
  buildTaskProgress,
  buildUrlElicitation,
} from "../rule-facts.js";
import { caching } from "./caching.js";
import { discovery } from "./discovery.js";
import { handshake } from "./handshake.js";
import { http } from "./http.js";
import { inputRequired } from "./input-required.js";
import { meta } from "./meta.js";
import { missingCapability } from "./missing-capability.js";
import { notified } from "./notified.js";
import { pagination } from "./pagination.js";
import { paramGates } from "./param-gates.js";
import { requestLogging } from "./request-logging.js";
import { resultDefaults } from "./result-defaults.js";
import { resultTypes } from "./result-types.js";
import { serverErrors } from "./server-errors.js";
import { ProtocolSource, type RevisionFacts } from "./source.js";
import { subscriptions } from "./subscriptions.js";
import { taskAugmentation } from "./task-augmentation.js";
import { unsupportedVersion } from "./unsupported-version.js";

export function buildProtocol(
  declarations: Declaration[],
  methods: MethodEntry[],
  constants: { name: string; value: LiteralValue }[],
  table: ProtocolTable,
  facts: RevisionFacts,
  paramCapabilities: Record<string, ParamCapabilityEntry[]>,
): Protocol {
  const source = new ProtocolSource(declarations, methods, constants, table, facts);
  const { schema } = source;
  const protocol: Protocol = {};
  // In the model's key order; a piece may read the pieces before it.
  put(protocol, "handshake", handshake(source));
  put(protocol, "discovery", discovery(source));
  put(protocol, "requestMeta", meta(source, "requestMeta"));
  put(protocol, "resultMeta", meta(source, "resultMeta"));
  put(protocol, "resultDefaults", resultDefaults(source));
  put(protocol, "inputRequired", inputRequired(source));
  put(protocol, "pagination", pagination(source));
  put(protocol, "taskAugmentation", taskAugmentation(source));
  put(protocol, "cancellation", notified(source, "cancellation"));
  put(protocol, "progress", notified(source, "progress"));
  put(protocol, "unsupportedVersion", unsupportedVersion(source));
  put(protocol, "missingCapability", missingCapability(source));
  put(protocol, "http", http(source, protocol));
  put(protocol, "requestLogging", requestLogging(source, protocol));
  put(protocol, "subscriptions", subscriptions(source));
  put(protocol, "caching", caching(source));
  put(protocol, "paramGates", paramGates(schema, paramCapabilities));
  put(protocol, "samplingTools", buildSamplingTools(schema, table.samplingTools));
  put(protocol, "rootUris", buildRootUris(schema, table.rootUris));
  put(protocol, "urlElicitation", buildUrlElicitation(schema, table.urlElicitation));
  put(protocol, "contentMime", buildContentMime(schema, table.contentMime));
  put(protocol, "taskProgress", buildTaskProgress(schema, table.taskProgress, protocol.taskAugmentation?.result));
  put(protocol, "extensionIds", buildExtensionIds(schema, table.extensionIds));
  put(protocol, "resultTypes", resultTypes(schema, table.resultTypes, protocol));
  put(protocol, "serverErrors", serverErrors(source));
  return protocol;
}

/** Sets a piece the revision has; one it lacks stays absent from the model. */
function put<K extends keyof Protocol>(protocol: Protocol, key: K, piece: Protocol[K] | undefined): void {
  if (piece !== undefined) protocol[key] = piece;
}
