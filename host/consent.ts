// The human in the loop: every sampling and elicitation request a server sends, and every tool
// call the application makes, is put to one consent hook that approves it, edits it or denies it,
// and is attributed to the server it comes from or goes to. Without a hook, sampling and
// elicitation are denied (nobody could review them) and tool calls go ahead (the application
// makes them itself).
import { ConsentDeniedError } from "./errors.js";
import type { ElicitationParams, ElicitationResult, Revision, SamplingParams, SamplingResult } from "./revisions.js";

type Awaitable<T> = T | Promise<T>;

export interface ToolCallParams {
  /** The tool's own name on its server. */
  name: string;
  arguments?: { [key: string]: unknown };
}

export interface Attributed {
  readonly server: string;
  readonly revision: Revision;
}

export type ConsentRequest =
  | (Attributed & { readonly kind: "sampling"; readonly params: SamplingParams })
  | (Attributed & { readonly kind: "elicitation"; readonly params: ElicitationParams })
  | (Attributed & { readonly kind: "toolCall"; readonly id: string; readonly params: ToolCallParams });

/** `edit` replaces the request's params with ones of the same kind. */
export type ConsentDecision =
  { action: "approve" } | { action: "deny"; reason?: string } | { action: "edit"; params: ConsentRequest["params"] };

export type ConsentHook = (request: ConsentRequest) => Awaitable<ConsentDecision>;

export interface HandlerContext {
  /** Aborted when the server cancels its request or its connection ends. */
  readonly signal: AbortSignal;
}

/** Produces the completion a server asked for (after consent). */
export type SamplingHandler = (
  request: Attributed & { readonly params: SamplingParams },
  context: HandlerContext,
) => Awaitable<SamplingResult>;

/** Asks the user what a server asked for (after consent). */
export type ElicitationHandler = (
  request: Attributed & { readonly params: ElicitationParams },
  context: HandlerContext,
) => Awaitable<ElicitationResult>;

type Verdict<P> = { approved: true; params: P } | { approved: false; reason: string };

async function decide<P>(hook: ConsentHook | undefined, request: ConsentRequest, unreviewed: Verdict<P>) {
  if (!hook) return unreviewed;
  const decision = await hook(request);
  if (decision.action === "deny") return { approved: false, reason: decision.reason ?? "denied by the user" } as const;
  const params = (decision.action === "edit" ? decision.params : request.params) as P;
  return { approved: true, params } as const;
}

const NO_HOOK = { approved: false, reason: "no consent hook is configured" } as const;

/**
 * A server's sampling request. It only ever gets this server's own context: a request for every
 * server's context is narrowed to this one before anyone sees it. A denial is the protocol's
 * "user rejected" error, sent back to the server.
 */
export async function reviewSampling(
  consent: ConsentHook | undefined,
  handler: SamplingHandler,
  from: Attributed,
  params: SamplingParams,
  context: HandlerContext,
): Promise<SamplingResult> {
  const isolated = (
    params.includeContext === "allServers" ? { ...params, includeContext: "thisServer" } : params
  ) as SamplingParams;
  const verdict = await decide<SamplingParams>(consent, { ...from, kind: "sampling", params: isolated }, NO_HOOK);
  if (!verdict.approved) throw new ConsentDeniedError(from.server, "sampling", verdict.reason);
  return handler({ ...from, params: verdict.params }, context);
}

/** A server's elicitation request. A denial is what the protocol has for a user who says no: `decline`. */
export async function reviewElicitation(
  consent: ConsentHook | undefined,
  handler: ElicitationHandler,
  from: Attributed,
  params: ElicitationParams,
  context: HandlerContext,
): Promise<ElicitationResult> {
  const verdict = await decide<ElicitationParams>(consent, { ...from, kind: "elicitation", params }, NO_HOOK);
  if (!verdict.approved) return { action: "decline" };
  return handler({ ...from, params: verdict.params }, context);
}

/** A tool call the application makes: the params to send, or ConsentDeniedError (nothing is sent). */
export async function reviewToolCall(
  consent: ConsentHook | undefined,
  to: Attributed,
  id: string,
  params: ToolCallParams,
): Promise<ToolCallParams> {
  const verdict = await decide<ToolCallParams>(
    consent,
    { ...to, kind: "toolCall", id, params },
    {
      approved: true,
      params,
    },
  );
  if (!verdict.approved) throw new ConsentDeniedError(to.server, "toolCall", verdict.reason);
  return verdict.params;
}
