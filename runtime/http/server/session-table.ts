// Which 2025-era sessions an endpoint keeps: the open sessions by Mcp-Session-Id with the subject
// that opened each, and the limits that keep a peer from filling the table. A session whose client
// has not come back since the handshake (its `notifications/initialized`, or any request naming
// it) is unfinished and expires fast; a session no request has named for the idle limit is closed,
// open stream or not; at the cap (overall, or per subject) the unfinished sessions go first, then
// the least recently active ones, so a new client is always served while old ones idle. A closed
// session's next request gets 404, and its client opens a new one, as the transport page intends.
// Only a session still answering a request is never taken.
import type { StreamableHttpSession } from "./session-transport.js";

export interface SessionLimits {
  /** Closes sessions no request has named for this long, in ms (0 keeps them). */
  readonly idleMs: number;
  /** Closes a session its client has not come back to this long after the handshake, in ms (0 keeps them). */
  readonly handshakeMs: number;
  /** Open sessions at most. */
  readonly maxSessions: number;
  /** Open sessions per subject at most (protected endpoints), or none. */
  readonly maxPerSubject: number | undefined;
}

/** How often expiry runs at most, in ms: a session outlives its limit by less than this. */
const MAX_SWEEP_INTERVAL_MS = 60_000;

export class SessionTable {
  readonly sessions = new Map<string, StreamableHttpSession>();
  /** Session id → the subject of the token that opened it. */
  private readonly owners = new Map<string, string>();
  /** Sessions whose client has not come back since the handshake, oldest first, with when they opened. */
  private readonly unfinished = new Map<string, number>();
  private sweeper: ReturnType<typeof setInterval> | undefined;
  private readonly limits: SessionLimits;

  constructor(limits: SessionLimits) {
    this.limits = limits;
  }

  add(session: StreamableHttpSession, owner: string | undefined): void {
    this.sessions.set(session.sessionId, session);
    if (owner !== undefined) this.owners.set(session.sessionId, owner);
    this.unfinished.set(session.sessionId, Date.now());
    this.startSweeping();
  }

  delete(id: string): void {
    this.sessions.delete(id);
    this.owners.delete(id);
    this.unfinished.delete(id);
    if (this.sessions.size === 0) this.stopSweeping();
  }

  /** The session `id` names, when `subject` opened it (someone else's session is no different from none). */
  find(id: string, subject: string | undefined): StreamableHttpSession | undefined {
    const session = this.sessions.get(id);
    if (!session || this.owners.get(id) !== subject) return undefined;
    // The client came back: its handshake is done, and the session is active.
    this.unfinished.delete(id);
    session.touch();
    return session;
  }

  /**
   * Keeps the table within its limits now that `newcomer` is in it, closing others as the limits
   * say; false when every session that could make room is still answering a request.
   */
  makeRoom(newcomer: StreamableHttpSession): boolean {
    const { maxSessions, maxPerSubject } = this.limits;
    const subject = this.owners.get(newcomer.sessionId);
    const others = [...this.sessions.keys()].filter((id) => id !== newcomer.sessionId);
    if (subject !== undefined && maxPerSubject !== undefined) {
      const own = others.filter((id) => this.owners.get(id) === subject);
      if (!this.evict(own, own.length + 1 - maxPerSubject)) return false;
    }
    return this.evict(others, this.sessions.size - maxSessions);
  }

  close(): StreamableHttpSession[] {
    this.stopSweeping();
    return [...this.sessions.values()];
  }

  /** Closes `count` of `ids`: unfinished ones first, oldest first, then the least recently active. */
  private evict(ids: readonly string[], count: number): boolean {
    if (count <= 0) return true;
    const among = new Set(ids);
    const closable = (id: string) => {
      const session = this.sessions.get(id);
      return session && !session.answering ? [session] : [];
    };
    const candidates = [
      ...[...this.unfinished.keys()].filter((id) => among.has(id)).flatMap(closable),
      ...ids
        .filter((id) => !this.unfinished.has(id))
        .flatMap(closable)
        .sort((a, b) => a.lastActive - b.lastActive),
    ];
    if (candidates.length < count) return false;
    for (const session of candidates.slice(0, count)) void session.close();
    return true;
  }

  /** Closes the sessions past their limits; runs while there are sessions. */
  private sweep(): void {
    const now = Date.now();
    const { idleMs, handshakeMs } = this.limits;
    for (const session of [...this.sessions.values()]) {
      if (session.answering) continue;
      const opened = this.unfinished.get(session.sessionId);
      const expired =
        (handshakeMs > 0 && opened !== undefined && now - opened >= handshakeMs) ||
        (idleMs > 0 && now - session.lastActive >= idleMs);
      if (expired) void session.close();
    }
  }

  private startSweeping(): void {
    const limits = [this.limits.idleMs, this.limits.handshakeMs].filter((ms) => ms > 0);
    if (this.sweeper !== undefined || limits.length === 0) return;
    this.sweeper = setInterval(() => this.sweep(), Math.min(...limits, MAX_SWEEP_INTERVAL_MS));
    // Expiry must not keep the process alive on its own.
    (this.sweeper as { unref?: () => void }).unref?.();
  }

  private stopSweeping(): void {
    if (this.sweeper !== undefined) clearInterval(this.sweeper);
    this.sweeper = undefined;
  }
}
