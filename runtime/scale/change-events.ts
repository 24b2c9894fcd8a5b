// The change-event bus: server notifications that are about the service, not one request
// (tools/list_changed, resources/updated, …), published on any node and delivered on every node,
// the publishing one included, to the clients connected there (2026-07-28 listen streams,
// 2025-era sessions). createMcpServer's `events` option takes one.

/** One change event: a server notification's method and params. */
export interface ChangeEvent {
  readonly method: string;
  readonly params?: { readonly [key: string]: unknown } | undefined;
}

export interface ChangeEventBus {
  /**
   * Publishes to every node. Resolves once the bus has taken the event; rejects when it cannot
   * (its backend is unreachable, say): the event is lost and the publisher is told so, never
   * silently dropped.
   */
  publish(event: ChangeEvent): Promise<void>;
  /** Every event published on any node from now on, this one's included. Returns the unsubscribe. */
  subscribe(listener: (event: ChangeEvent) => void): () => void;
}

/**
 * One process's bus: publishing delivers to this process's subscribers, as a server without a
 * bus does. Delivery is synchronous, in publish order; a listener that throws fails no other.
 * `publish` resolves once every listener has handled the event (a promise it returned settled).
 */
export class InMemoryChangeEventBus implements ChangeEventBus {
  private readonly listeners = new Set<(event: ChangeEvent) => void>();
  private readonly onError: ((error: Error) => void) | undefined;

  constructor(options: { onError?: (error: Error) => void } = {}) {
    this.onError = options.onError;
  }

  async publish(event: ChangeEvent): Promise<void> {
    const report = (error: unknown) => this.onError?.(error instanceof Error ? error : new Error(String(error)));
    const handling: Promise<unknown>[] = [];
    for (const listener of [...this.listeners]) {
      try {
        const handled: unknown = listener(event);
        if (handled instanceof Promise) handling.push(handled.catch(report));
      } catch (error) {
        report(error);
      }
    }
    await Promise.all(handling);
  }

  subscribe(listener: (event: ChangeEvent) => void): () => void {
    this.listeners.add(listener);
    return () => void this.listeners.delete(listener);
  }
}
