// The facts of one revision that its generated client and server run on, handed in as data
// (each revision's methods.ts `SESSION`, from the model): how a session starts, which state the
// messages carry and where, which member of the typed client or handler interface each method
// is, and the revision's optional pieces (subscriptions, multi round-trip input, caching). The
// client (runtime/client/) and server (runtime/server/) logic reads these and nothing else that
// differs by revision.
import type { HandlerCapabilities } from "./capabilities.js";
import type { Inspection, PeerOptions, SentRequest } from "./peer.js";
import type { RequestId } from "./jsonrpc.js";
import type { CachingFacts } from "./response-cache.js";
import type { CapabilityFact, RuleFacts } from "./rules/facts.js";
import type { HttpBinding } from "./transport.js";

/** Runtime facts about one method (the `*_INFO` tables of methods.ts). */
export interface MethodInfo {
  readonly kind: "request" | "notification";
  /** `inputRequired`: sent inside a result that asks the caller for input, not as a message of its own. */
  readonly delivery: "message" | "inputRequired";
  /** The schema type of the request or notification. */
  readonly messageType: string;
  /** The capability that must be declared before the method may be used, if any. */
  readonly capability: CapabilityFact | null;
  /** The member of the typed client or handler interface for it (`callTool`; handlers of notifications add `on`). */
  readonly member: string;
  /** Absent params reach a handler as `{}`: every field of them is optional. */
  readonly emptyParams?: true;
  /** Answered with an empty result when no handler is present. */
  readonly emptyResult?: true;
  /** The value a handler's presence declares at `capability` (`true` for a flag, `{}` for an object). */
  readonly declares?: unknown;
}

/** Method → its facts, for one direction and kind. */
export type MethodTable = { readonly [method: string]: MethodInfo };

/** A protocol field (`protocolVersion`) and the state it carries (see spec/method-inferences.json). */
export interface FieldBinding {
  readonly field: string;
  readonly state: string;
}

/** The generated validator of the revision's JSON-RPC messages, as the client and server call it. */
export type MessageCheck = (
  message: unknown,
  options: {
    from: "client" | "server";
    requestOf: (id: RequestId) => SentRequest | undefined;
  },
) => Inspection;

export interface SessionFacts {
  readonly revision: string;
  /** The facts the protocol's rules are checked on (methods.ts `PROTOCOL_RULES`). */
  readonly rules: RuleFacts;
  readonly clientRequests: MethodTable;
  readonly serverRequests: MethodTable;
  readonly clientNotifications: MethodTable;
  readonly serverNotifications: MethodTable;
  /** A connection starts with this request and notification; before it, only `allowedBefore`. */
  readonly handshake?: {
    readonly request: string;
    readonly notification: string;
    readonly allowedBefore: readonly string[];
    readonly params: readonly FieldBinding[];
    readonly result: readonly FieldBinding[];
  };
  /** Stateless discovery instead of a handshake, with the result fields every answer has. */
  readonly discovery?: {
    readonly request: string;
    readonly result: readonly FieldBinding[];
    readonly defaults: { readonly [field: string]: unknown };
  };
  /** State every request carries in `params._meta`. */
  readonly requestMeta?: readonly FieldBinding[];
  /** State results may carry in `_meta`. */
  readonly resultMeta?: readonly FieldBinding[];
  /** Fields every result carries, with the value a result leaving them out stands for. */
  readonly resultDefaults?: { readonly [field: string]: unknown };
  /** The error a request of an unsupported protocol version gets, and the state its data names. */
  readonly unsupportedVersion?: { readonly code: number; readonly data: readonly FieldBinding[] };
  /** The error input requests get when they need client capabilities not declared; `data` names them. */
  readonly missingCapability?: { readonly code: number; readonly data: string };
  /** A result asking the caller for input and a retry (multi round-trip). */
  readonly inputRequired?: {
    readonly marker: { readonly field: string; readonly value: unknown };
    readonly requests: string;
    readonly responses: string;
    readonly state: string;
  };
  /** Log notifications for a request go out at or above the level its `_meta` asks for. */
  readonly requestLogging?: {
    readonly notification: string;
    readonly field: string;
    readonly state: string;
    readonly levels: readonly string[];
  };
  /** Change notifications delivered on a long-lived request's stream. */
  readonly subscriptions?: {
    readonly request: string;
    readonly filter: string;
    readonly acknowledged: string;
    readonly idMeta: string;
    /** The notification a server ending a subscription sends, if any. */
    readonly endedBy?: string;
    readonly flags: readonly {
      readonly field: string;
      readonly notification: string;
      readonly capability: readonly string[];
    }[];
    readonly lists: readonly {
      readonly field: string;
      readonly notification: string;
      readonly match: string;
      readonly capability: readonly string[];
    }[];
  };
  readonly caching?: CachingFacts;
  readonly pagination?: { readonly cursor: string; readonly next: string; readonly methods: readonly string[] };
  readonly cancellation?: { readonly method: string; readonly directions: readonly Direction[] };
  readonly progress?: { readonly method: string; readonly directions: readonly Direction[] };
  /** JSON-RPC batches (2025-03-26). */
  readonly batches?: true;
  /** Params fields that make a request task-augmented. */
  readonly taskFields?: readonly string[];
  /** How the revision travels over Streamable HTTP (methods.ts `HTTP_BINDING`). */
  readonly http?: HttpBinding;
}

export type Direction = "clientToServer" | "serverToClient";

/** The capability each handler's presence declares, by handler member, for the side that handles `table`. */
export function handlerCapabilities(table: MethodTable, side: "client" | "server"): HandlerCapabilities {
  const out: { [member: string]: readonly [readonly string[], unknown] } = {};
  for (const info of Object.values(table)) {
    if (info.capability?.side === side && info.declares !== undefined)
      out[info.member] = [info.capability.path, info.declares];
  }
  return out;
}

/** A field's value of the state record, by binding. */
export function bindState(
  fields: readonly FieldBinding[] | undefined,
  from: { readonly [key: string]: unknown },
): {
  [field: string]: unknown;
} {
  const out: { [field: string]: unknown } = {};
  for (const { field, state } of fields ?? []) if (from[state] !== undefined) out[field] = from[state];
  return out;
}

/** The Peer options one side takes from the facts: cancellation, progress, batches, tasks. */
export function peerFacts(facts: SessionFacts, side: "client" | "server"): Partial<PeerOptions> {
  const sends: Direction = side === "client" ? "clientToServer" : "serverToClient";
  const { cancellation, progress, handshake, subscriptions } = facts;
  const out: Partial<PeerOptions> = {};
  if (cancellation) {
    out.cancellation = { method: cancellation.method, send: cancellation.directions.includes(sends) };
    // The lifecycle page: the handshake is never cancelled.
    if (handshake) out.cancellation.notFor = [handshake.request];
    // The cancellation page of revisions with subscriptions: a server cancels only a stream it ends.
    if (side === "client" && subscriptions?.endedBy === cancellation.method)
      out.cancellation.endsOwn = [subscriptions.request];
  }
  if (progress) out.progress = { method: progress.method, send: progress.directions.includes(sends) };
  if (facts.batches) out.batches = true;
  if (facts.taskFields) out.taskFields = facts.taskFields;
  if (facts.rules.taskProgress) out.tasks = facts.rules.taskProgress;
  return out;
}

/** The table's own entry for `method` (never one Object.prototype has: `constructor`, `__proto__`). */
export function infoOf(table: MethodTable, method: string): MethodInfo | undefined {
  return Object.hasOwn(table, method) ? table[method] : undefined;
}
