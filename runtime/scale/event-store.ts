// The events of 2025-era resumable SSE streams, kept where another node can read them. The node
// serving a session keeps its streams' events itself (runtime/http/server/session-transport.ts
// replays its own log, synchronously, as it always has); with a store it also writes each event
// there, so that a node that does not hold the session (its owner died or went away) can still
// replay what the client missed after its Last-Event-ID. Streams are named "<session id>/<stream id>".

/** One event of a stream: its sequence number in the stream (the part of its SSE id after "_") and its wire text. */
export interface StoredEvent {
  readonly seq: number;
  readonly text: string;
  /**
   * On a protected endpoint, the subject of the token that opened the session: the session is
   * that subject's alone, so a node replaying the stream after its owner is gone serves no other.
   * A store keeps it with the event; one that dropped it would make such streams unreplayable
   * (a replay checks it), never open to anyone.
   */
  readonly subject?: string | undefined;
}

export interface EventStore {
  /**
   * Keeps an event. Fire and forget for the writer (a session must not wait on a network to
   * answer); a store that fails reports it itself (its onError) rather than throwing here.
   */
  append(stream: string, event: StoredEvent): void;
  /**
   * The events of `stream` after sequence number `after`, in order; undefined when the store
   * does not know the stream (never kept, expired, or trimmed past `after`, so a gap would be
   * replayed as if there were none).
   */
  replay(stream: string, after: number): Promise<StoredEvent[] | undefined>;
  /** The stream is done: no more events; a store may forget it after its retention. */
  end(stream: string): void;
}

/**
 * One process's store, bounded: at most `maxEventsPerStream` events per stream (the oldest go
 * first) and `maxStreams` streams (the least recently written go first).
 */
export class InMemoryEventStore implements EventStore {
  private readonly streams = new Map<string, { events: StoredEvent[]; trimmed: number }>();
  private readonly maxEvents: number;
  private readonly maxStreams: number;

  constructor(options: { maxEventsPerStream?: number; maxStreams?: number } = {}) {
    this.maxEvents = options.maxEventsPerStream ?? 1000;
    this.maxStreams = options.maxStreams ?? 10_000;
  }

  append(stream: string, event: StoredEvent): void {
    const kept = this.streams.get(stream) ?? { events: [], trimmed: 0 };
    // Re-inserting moves the stream to the end: the map's order is least recently written first.
    this.streams.delete(stream);
    this.streams.set(stream, kept);
    kept.events.push(event);
    if (kept.events.length > this.maxEvents) kept.trimmed = kept.events.shift()?.seq ?? kept.trimmed;
    for (const name of this.streams.keys()) {
      if (this.streams.size <= this.maxStreams) break;
      this.streams.delete(name);
    }
  }

  async replay(stream: string, after: number): Promise<StoredEvent[] | undefined> {
    const kept = this.streams.get(stream);
    if (!kept || after < kept.trimmed) return undefined;
    return kept.events.filter((event) => event.seq > after);
  }

  end(): void {}
}
