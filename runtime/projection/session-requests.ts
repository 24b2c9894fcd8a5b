// Handlers written against one session revision, run by the generated server of an older one (on
// the same registrations): a request a handler sends to the client through its context's helpers
// goes through that server's own helper with its params as that revision has them, so that
// revision's rules and capability checks apply, hints that revision lacks dropped. One it cannot
// express fails for the handler and nothing is sent: the method missing, -32601; what it cannot
// hold, or a conversion that is not lossless, -32602 (to-client.ts).
import { RpcError } from "../jsonrpc.js";
import type { Invoke } from "../server/registry.js";
import { withHelpers } from "./context-helpers.js";
import type { RevisionProjection } from "./shapes.js";
import { toClient } from "./to-client.js";

type Helper = (params: unknown, options: unknown) => Promise<unknown>;

/**
 * How a registry of `target` runs handlers written against `writtenFor`: their requests to the
 * client sent by `target`'s helpers; `onDowngraded` hears the hints dropped and the lossless
 * conversions applied.
 */
export function requestsAs(
  writtenFor: RevisionProjection,
  target: RevisionProjection,
  onDowngraded?: (method: string, dropped: readonly string[], converted: readonly string[]) => void,
): Invoke {
  const helperFor = new Map(Object.entries(target.helpers).map(([name, method]) => [method, name]));
  return (run, context) =>
    run(
      withHelpers(context, writtenFor.helpers, (method, params, options) => {
        const helper = helperFor.get(method);
        const shape =
          helper !== undefined && Object.hasOwn(target.requests, method) ? (target.requests[method] ?? 0) : undefined;
        const sent = toClient(method, params, shape, target, writtenFor);
        if ("error" in sent) return Promise.reject(new RpcError(sent.error.code, sent.error.message));
        if (sent.dropped.length > 0 || sent.converted.length > 0) onDowngraded?.(method, sent.dropped, sent.converted);
        return ((context as { [name: string]: unknown })[helper!] as Helper)(sent.params, options);
      }),
    );
}
