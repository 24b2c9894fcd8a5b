// Which node holds each 2025-era session. A session's server (its handshake state, its pending
// requests) lives in one process; the directory lets any node find that process and forward the
// session's requests to it, and forget the record when the owner stops renewing it (it died).

/** A node of the service, as other nodes reach it. */
export interface NodeAddress {
  /** Unique per process (a random id, say), so that a restarted node is not taken for its predecessor. */
  readonly node: string;
  /** The node's own MCP endpoint, reachable by the other nodes (not the load balancer's URL). */
  readonly url: string;
}

export interface SessionDirectory {
  /** Records (or renews) `owner` as the node holding `sessionId`, for `ttlMs`. */
  claim(sessionId: string, owner: NodeAddress, ttlMs: number): Promise<void>;
  /** The node holding `sessionId`, or undefined when none does (closed, or its record expired). */
  lookup(sessionId: string): Promise<NodeAddress | undefined>;
  /** The session ended. */
  release(sessionId: string): Promise<void>;
}

/** One process's directory: a map with expiry, checked on lookup. */
export class InMemorySessionDirectory implements SessionDirectory {
  private readonly records = new Map<string, { owner: NodeAddress; expires: number }>();

  async claim(sessionId: string, owner: NodeAddress, ttlMs: number): Promise<void> {
    this.records.set(sessionId, { owner, expires: Date.now() + ttlMs });
  }

  async lookup(sessionId: string): Promise<NodeAddress | undefined> {
    const record = this.records.get(sessionId);
    if (record && record.expires > Date.now()) return record.owner;
    this.records.delete(sessionId);
    return undefined;
  }

  async release(sessionId: string): Promise<void> {
    this.records.delete(sessionId);
  }
}
