// Redis for an MCP endpoint served by several processes or machines: the shared implementations
// of runtime/scale/'s interfaces. Not part of the vendored runtime (it needs a Redis client):
// published as @mcp-gen/runtime/redis, with @redis/client as an optional peer dependency.
//   - change events: pub/sub on one channel (events.ts);
//   - resumable 2025-era stream events: one Redis Stream per SSE stream, trimmed to a length and
//     expiring after a retention (event-store.ts);
//   - 2025-era session ownership: one key per session with an expiry its owner renews (directory.ts).
// Nodes survive Redis going away: the client reconnects on its own, and what could not be done
// meanwhile is reported (a publish rejects, a subscriber's gap is told to onError), never dropped
// silently.
import { createClient } from "@redis/client";
import type { ChangeEventBus, EventStore, SessionDirectory } from "../../runtime/scale/index.js";
import { RedisChangeEventBus } from "./events.js";
import { RedisEventStore } from "./event-store.js";
import { RedisSessionDirectory } from "./directory.js";
import type { Redis } from "./client.js";

export { RedisChangeEventBus } from "./events.js";
export { RedisEventStore } from "./event-store.js";
export { RedisSessionDirectory } from "./directory.js";
export type { Redis } from "./client.js";

export interface RedisScaleOptions {
  /** redis://host:port (default redis://127.0.0.1:6379). */
  url?: string | undefined;
  /** Prefix of every key and channel, so that services can share a Redis (default "mcp:"). */
  prefix?: string | undefined;
  /** Events kept per resumable stream (approximately; default 1000). */
  maxStreamEvents?: number | undefined;
  /** How long a resumable stream's events are kept after its last event, in ms (default 1 hour). */
  streamRetentionMs?: number | undefined;
  /** Redis being unreachable, events lost meanwhile, and anything else no caller can be told. */
  onError?: ((error: Error) => void) | undefined;
}

export interface RedisScale {
  /** createMcpServer's `events`. */
  readonly events: ChangeEventBus;
  /** The HTTP endpoint's `cluster.eventStore`. */
  readonly eventStore: EventStore;
  /** The HTTP endpoint's `cluster.directory`. */
  readonly directory: SessionDirectory;
  /** Disconnects both connections. */
  close(): Promise<void>;
}

/**
 * Connects to Redis (one connection for commands and publishing, one for the subscription) and
 * returns the three shared implementations. Rejects when Redis cannot be reached at start; later
 * outages are survived and reported.
 */
export async function connectRedis(options: RedisScaleOptions = {}): Promise<RedisScale> {
  const onError = options.onError ?? ((error: Error) => console.error(`mcp redis: ${error.message}`));
  const prefix = options.prefix ?? "mcp:";
  // No offline queue: a command issued while Redis is away fails at once (a publish is then
  // reported as lost) instead of waiting, unbounded, for a reconnection that may not come.
  const commands = createClient({
    url: options.url ?? "redis://127.0.0.1:6379",
    disableOfflineQueue: true,
    socket: { reconnectStrategy: (retries: number) => Math.min(50 * 2 ** retries, 2000) },
  });
  const subscriber = commands.duplicate();
  commands.on("error", (error: Error) => onError(new Error(`redis connection: ${error.message}`)));
  subscriber.on("error", (error: Error) => onError(new Error(`redis subscription: ${error.message}`)));
  await commands.connect();
  try {
    await subscriber.connect();
  } catch (error) {
    commands.destroy();
    throw error;
  }
  const redis = commands as unknown as Redis;
  const events = new RedisChangeEventBus(redis, subscriber as unknown as Redis, {
    channel: `${prefix}events`,
    onError,
  });
  await events.start();
  return {
    events,
    eventStore: new RedisEventStore(redis, {
      prefix: `${prefix}stream:`,
      maxEvents: options.maxStreamEvents ?? 1000,
      retentionMs: options.streamRetentionMs ?? 60 * 60_000,
      onError,
    }),
    directory: new RedisSessionDirectory(redis, { prefix: `${prefix}session:` }),
    async close() {
      events.stop();
      // destroy(), not quit(): a close while Redis is away must not wait for it.
      subscriber.destroy();
      commands.destroy();
    },
  };
}
