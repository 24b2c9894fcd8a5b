// One revision's protocol rules, for one generated client or server, at the points where it
// meets a message: a message about to be sent, a request received, an answer given or received,
// a notification received, a result asking for input. Each check returns the violation (or
// undefined); the caller decides what it costs (an error answer, a local failure, a dropped
// notification). Rules the application relaxed are never reported.
import { ErrorCode } from "../jsonrpc.js";
import { methodViolation, paramViolation } from "./capabilities.js";
import type { CapabilityFact, Negotiated, RuleFacts } from "./facts.js";
import { pageScopeViolation } from "./cache-scope.js";
import { contentMimeViolation } from "./content-mime.js";
import { extensionIdViolation } from "./extension-ids.js";
import { inputRequiredViolation } from "./input-required.js";
import { RESULT_TYPE_RECOGNISED, recognisedKind, resultTypeViolation } from "./result-types.js";
import { rootsViolation } from "./roots.js";
import { samplingRequestViolation, samplingResultViolation } from "./sampling.js";
import { requiredElicitationViolation, UrlElicitations } from "./url-elicitations.js";
import type { RuleViolation } from "./violation.js";

type Direction = "clientToServer" | "serverToClient";

export class RuleBook {
  private readonly relaxed: ReadonlySet<string>;
  private readonly elicitations: UrlElicitations | undefined;

  /** `relaxed`: rule ids neither side is held to (for a peer known to break them). */
  readonly facts: RuleFacts;

  constructor(facts: RuleFacts, relaxed: readonly string[] = []) {
    this.facts = facts;
    this.relaxed = new Set(relaxed);
    this.elicitations = facts.urlElicitation && new UrlElicitations(facts.urlElicitation);
  }

  /**
   * A request or notification this side is about to send: its method's capability, gated params
   * and content. A violation fails the call locally (-32603); nothing is sent.
   */
  sending(
    direction: Direction,
    method: string,
    capability: CapabilityFact | null | undefined,
    params: unknown,
    negotiated: Negotiated,
  ): RuleViolation | undefined {
    return this.kept(
      methodViolation(method, capability, negotiated) ??
        paramViolation(method, this.facts.paramGates?.[direction]?.[method], params, negotiated) ??
        this.content(method, params, negotiated, ErrorCode.InternalError),
    );
  }

  /**
   * A request received (as a message, or inside a result asking for input): its gated params and
   * content, answered with -32602 as the pages prescribe. The method's own capability is the
   * receiver's: a handler present declares it, an absent one answers "method not found".
   */
  received(direction: Direction, method: string, params: unknown, negotiated: Negotiated): RuleViolation | undefined {
    const refused = this.kept(
      paramViolation(
        method,
        this.facts.paramGates?.[direction]?.[method],
        params,
        negotiated,
        ErrorCode.InvalidParams,
      ) ?? this.content(method, params, negotiated, ErrorCode.InvalidParams),
    );
    if (!refused) this.elicitations?.requested(method, params);
    return refused;
  }

  /**
   * An answer to a request, this side's own or the other side's: what it must not contain (a kind
   * of result no one recognises, first). The answering side does not send it (-32603 to the
   * caller); the asking side's call fails with it.
   */
  answer(method: string, params: unknown, result: unknown): RuleViolation | undefined {
    const { samplingTools, rootUris, contentMime, resultTypes } = this.facts;
    const unknownKind = resultTypes && this.kept(resultTypeViolation(resultTypes, method, result));
    if (unknownKind) return unknownKind;
    if (samplingTools && method === samplingTools.request)
      return this.kept(samplingResultViolation(samplingTools, params, result));
    if (rootUris && method === rootUris.request) return this.kept(rootsViolation(rootUris, result));
    if (contentMime) return this.kept(contentMimeViolation(contentMime, method, result));
    return undefined;
  }

  /**
   * A side's capabilities: this side's own before it declares them (-32603, nothing sent), or the
   * other side's as they arrive (`code`: -32602 for a request carrying them).
   */
  capabilities(
    side: "client" | "server",
    declared: unknown,
    code: number = ErrorCode.InternalError,
  ): RuleViolation | undefined {
    const facts = this.facts.extensionIds;
    return facts && this.kept(extensionIdViolation(facts, side, declared, code));
  }

  /**
   * Whether a result is of a kind this revision recognises (or the rule is relaxed). One that is
   * not matches none of the known kinds' shapes, so a client does not check it against them;
   * `answer` refuses it.
   */
  recognises(result: unknown): boolean {
    const facts = this.facts.resultTypes;
    return !facts || this.relaxed.has(RESULT_TYPE_RECOGNISED) || recognisedKind(facts, result);
  }

  /** A later page of a list (followed by its cursor) against the first: the same cache scope. */
  page(method: string, first: unknown, page: unknown): RuleViolation | undefined {
    const facts = this.facts.cacheScope;
    return facts && this.kept(pageScopeViolation(facts, method, first, page));
  }

  /** An error a request of this side's got: a required-elicitation error names elicitations to expect. */
  failed(error: unknown): void {
    this.elicitations?.failed(error);
  }

  /** An error this side's handler threw: a required-elicitation error must list what it requires. */
  thrown(error: unknown): RuleViolation | undefined {
    const facts = this.facts.urlElicitation;
    return facts && this.kept(requiredElicitationViolation(facts, error));
  }

  /**
   * A notification received whose method needs a capability its side did not declare, or that
   * completes an elicitation this side does not know of: dropped. Before the gating side's
   * capabilities are known (a log message during the handshake) the capability is not checked.
   */
  notification(
    method: string,
    capability: CapabilityFact | null | undefined,
    params: unknown,
    negotiated: Negotiated,
  ): RuleViolation | undefined {
    const known = capability && negotiated[capability.side] !== undefined;
    const completes = this.elicitations && method === this.facts.urlElicitation?.complete;
    return this.kept(
      (known ? methodViolation(method, capability, negotiated) : undefined) ??
        (completes ? this.elicitations?.completed(params) : undefined),
    );
  }

  /** A result asking for input: only on the requests that may, and with something to ask or keep. */
  inputRequired(method: string, result: unknown): RuleViolation | undefined {
    const facts = this.facts.inputRequired;
    return facts && this.kept(inputRequiredViolation(facts, method, result));
  }

  private content(method: string, params: unknown, negotiated: Negotiated, code: number): RuleViolation | undefined {
    const tools = this.facts.samplingTools;
    return tools && method === tools.request
      ? samplingRequestViolation(tools, params, negotiated.client, code)
      : undefined;
  }

  private kept(violation: RuleViolation | undefined): RuleViolation | undefined {
    return violation && !this.relaxed.has(violation.rule) ? violation : undefined;
  }
}
