// Change events over Redis pub/sub: every node publishes to and subscribes to one channel, so an
// event published on any node reaches every node (the publisher too, which is how its own clients
// get it: one path for all). Pub/sub keeps nothing: an event published while a node's
// subscription is down never reaches that node, so the gap is reported (onError) when the
// subscription comes back, with its times; a publish Redis does not take rejects.
import type { ChangeEvent, ChangeEventBus } from "../../runtime/scale/index.js";
import type { Redis } from "./client.js";

export class RedisChangeEventBus implements ChangeEventBus {
  private readonly listeners = new Set<(event: ChangeEvent) => void>();
  private readonly channel: string;
  private readonly onError: (error: Error) => void;
  /** When the subscription went down, while it is down. */
  private downSince: Date | undefined;
  private readonly onDown = () => void (this.downSince ??= new Date());
  private readonly onUp = () => {
    if (this.downSince === undefined) return;
    const since = this.downSince;
    this.downSince = undefined;
    this.onError(
      new Error(
        `change events published between ${since.toISOString()} and ${new Date().toISOString()} ` +
          `(while the Redis subscription was down) were lost on this node`,
      ),
    );
  };

  constructor(
    private readonly publisher: Redis,
    private readonly subscriber: Redis,
    options: { channel: string; onError: (error: Error) => void },
  ) {
    this.channel = options.channel;
    this.onError = options.onError;
  }

  /** Subscribes to the channel; the client resubscribes by itself after a reconnection. */
  async start(): Promise<void> {
    this.subscriber.on("error", this.onDown);
    this.subscriber.on("reconnecting", this.onDown);
    this.subscriber.on("ready", this.onUp);
    await this.subscriber.subscribe(this.channel, (message) => this.deliver(message));
  }

  stop(): void {
    this.subscriber.off("error", this.onDown);
    this.subscriber.off("reconnecting", this.onDown);
    this.subscriber.off("ready", this.onUp);
  }

  async publish(event: ChangeEvent): Promise<void> {
    const message = JSON.stringify({ method: event.method, params: event.params });
    try {
      await this.publisher.sendCommand(["PUBLISH", this.channel, message]);
    } catch (error) {
      const reason = error instanceof Error ? error.message : String(error);
      throw new Error(`change event ${event.method} was lost: Redis did not take it (${reason})`);
    }
  }

  subscribe(listener: (event: ChangeEvent) => void): () => void {
    this.listeners.add(listener);
    return () => void this.listeners.delete(listener);
  }

  private deliver(message: string): void {
    let event: ChangeEvent;
    try {
      const parsed = JSON.parse(message) as { method?: unknown; params?: unknown };
      if (typeof parsed.method !== "string") throw new Error("no method");
      const params = typeof parsed.params === "object" && parsed.params !== null ? parsed.params : undefined;
      event = { method: parsed.method, params: params as ChangeEvent["params"] };
    } catch (error) {
      return this.onError(new Error(`a malformed change event on ${this.channel} was ignored: ${String(error)}`));
    }
    for (const listener of [...this.listeners]) {
      try {
        listener(event);
      } catch (error) {
        this.onError(error instanceof Error ? error : new Error(String(error)));
      }
    }
  }
}
