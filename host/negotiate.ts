// Picks the revision to speak with one server: each revision the host knows is offered in turn,
// newest first, by that revision's own generated client on a trial view of the connection.
// A discovery revision (2026-07-28) either succeeds or is refused. A refusal that is one of that
// revision's own errors (the version, a capability, the headers: see its HTTP binding) comes from
// a server of the same era, which is not taken for an older one: when it names the versions it
// supports, only those are offered further, otherwise negotiation ends. Any other refusal (a
// handshake server does not know `server/discover`, or refuses a request outside a session) goes
// on to the handshake revisions, as the versioning page's dual-era client does; a failed
// authorization ends negotiation (another offer would only ask the user again). The first handshake
// revision offered gets the server's answer, and when that names an older revision the host knows,
// the session goes on with that revision's client, adopting the answer the server already gave
// (see handover.ts).
import { NegotiationError } from "./errors.js";
import type { Handover } from "./handover.js";
import { REVISIONS, revisionModule, type RevisionModule } from "./revisions.js";
import type { GeneratedClient } from "./session.js";
import { RpcError, type Transport } from "../runtime/index.js";
import { AuthorizationError } from "../runtime/auth/client/index.js";

export interface Negotiated {
  readonly module: RevisionModule;
  readonly client: GeneratedClient;
}

export type OpenClient = (module: RevisionModule, transport: Transport) => GeneratedClient;

export async function negotiate(server: string, handover: Handover, open: OpenClient): Promise<Negotiated> {
  const attempts: string[] = [];
  let offers: readonly RevisionModule[] = REVISIONS;
  for (let module = offers[0]; module !== undefined; module = offers[0]) {
    offers = offers.slice(1);
    const trial = handover.trial();
    const client = open(module, trial);
    try {
      await client.connect();
      trial.adopt();
      return { module, client };
    } catch (error) {
      // A connection that ended is the server's failure, not a refusal of this revision; a failed
      // authorization is the user's or the authorization server's (the next offer would ask again).
      if (handover.closed || error instanceof AuthorizationError) throw error;
      attempts.push(`${module.REVISION}: ${error instanceof Error ? error.message : String(error)}`);
      if (error instanceof module.ProtocolVersionError && Array.isArray(error.offered)) {
        // A server of this era listing what it supports: nothing else is worth offering.
        const supported: readonly unknown[] = error.offered;
        offers = offers.filter((other) => supported.includes(other.REVISION));
        continue;
      }
      if (sameEraRefusal(module, error)) throw new NegotiationError(server, attempts);
      if (!(error instanceof module.ProtocolVersionError) || typeof error.offered !== "string") continue;
      const answered = revisionModule(error.offered);
      if (!answered || !trial.exchange) throw new NegotiationError(server, attempts);
      const adopted = open(answered, handover.owner(trial.exchange));
      await adopted.connect();
      return { module: answered, client: adopted };
    }
  }
  throw new NegotiationError(server, attempts);
}

/** One of the errors only servers of a stateless revision answer with (its binding names them). */
export function sameEraRefusal(module: RevisionModule, error: unknown): boolean {
  const binding = module.HTTP_BINDING;
  if (binding.kind !== "stateless" || !(error instanceof RpcError)) return false;
  const codes: number[] = [binding.headerMismatch, binding.missingCapability, binding.unsupportedVersion];
  return codes.includes(error.code);
}
