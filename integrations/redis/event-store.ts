// Resumable-stream events in Redis Streams: one Redis Stream per SSE stream, entry id "0-<seq>"
// (the event's own sequence number, so a replay needs no mapping), trimmed to about maxEvents
// entries (MAXLEN ~) and expiring retentionMs after its last event; an entry holds the event's
// text and, on a protected endpoint, its session's subject. A replay that would skip
// trimmed events answers "unknown" instead of replaying a gap as if there were none.
import type { EventStore, StoredEvent } from "../../runtime/scale/index.js";
import type { Redis } from "./client.js";

type Entry = [id: string, fields: string[]];

export class RedisEventStore implements EventStore {
  private readonly prefix: string;
  private readonly maxEvents: number;
  private readonly retentionMs: number;
  private readonly onError: (error: Error) => void;

  constructor(
    private readonly redis: Redis,
    options: { prefix: string; maxEvents: number; retentionMs: number; onError: (error: Error) => void },
  ) {
    this.prefix = options.prefix;
    this.maxEvents = options.maxEvents;
    this.retentionMs = options.retentionMs;
    this.onError = options.onError;
  }

  append(stream: string, event: StoredEvent): void {
    const key = this.prefix + stream;
    // One connection keeps commands in order, so the stream's entries arrive in sequence.
    const add = ["XADD", key, "MAXLEN", "~", String(this.maxEvents), `0-${event.seq}`, "text", event.text];
    if (event.subject !== undefined) add.push("subject", event.subject);
    this.redis
      .sendCommand(add)
      .then(() => this.redis.sendCommand(["PEXPIRE", key, String(this.retentionMs)]))
      .catch((error: unknown) => {
        const reason = error instanceof Error ? error.message : String(error);
        this.onError(
          new Error(
            `event ${event.seq} of stream ${stream} was not stored (${reason}): it cannot be replayed on another node`,
          ),
        );
      });
  }

  async replay(stream: string, after: number): Promise<StoredEvent[] | undefined> {
    const entries = await this.redis.sendCommand<Entry[]>(["XRANGE", this.prefix + stream, "-", "+"]);
    if (entries.length === 0) return undefined;
    const events = entries.map(([id, fields]): StoredEvent => {
      const record = new Map<string, string>();
      for (let i = 0; i + 1 < fields.length; i += 2) record.set(fields[i] as string, fields[i + 1] as string);
      const subject = record.get("subject");
      return {
        seq: Number(id.split("-")[1]),
        text: record.get("text") ?? "",
        ...(subject !== undefined ? { subject } : {}),
      };
    });
    // Trimmed past the cursor: the events right after it are gone.
    if ((events[0]?.seq ?? 0) > after + 1) return undefined;
    return events.filter((event) => event.seq > after);
  }

  end(): void {}
}
