// Picks the revision to speak with one server: each revision the host knows is offered in turn,
// newest first, by that revision's own generated client on a trial view of the connection.
// A discovery revision (2026-07-28) either succeeds or is refused (a handshake server does not
// know `server/discover`); the first handshake revision offered then gets the server's answer,
// and when that names an older revision the host knows, the session goes on with that
// revision's client, adopting the answer the server already gave (see handover.ts).
import { NegotiationError } from "./errors.js";
import type { Handover } from "./handover.js";
import { REVISIONS, revisionModule, type RevisionModule } from "./revisions.js";
import type { GeneratedClient } from "./session.js";
import type { Transport } from "../runtime/index.js";

export interface Negotiated {
  readonly module: RevisionModule;
  readonly client: GeneratedClient;
}

export type OpenClient = (module: RevisionModule, transport: Transport) => GeneratedClient;

export async function negotiate(server: string, handover: Handover, open: OpenClient): Promise<Negotiated> {
  const attempts: string[] = [];
  for (const module of REVISIONS) {
    const trial = handover.trial();
    const client = open(module, trial);
    try {
      await client.connect();
      trial.adopt();
      return { module, client };
    } catch (error) {
      // A connection that ended is the server's failure, not a refusal of this revision.
      if (handover.closed) throw error;
      attempts.push(`${module.REVISION}: ${error instanceof Error ? error.message : String(error)}`);
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
