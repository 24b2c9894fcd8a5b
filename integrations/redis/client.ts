// What these implementations use of a node-redis (@redis/client) connection: raw commands (one
// shape across client versions), its subscription, and its connection events. Typed here, not
// with the client's own generic types, so that any compatible connection can be passed.

export interface Redis {
  sendCommand<T = unknown>(args: string[]): Promise<T>;
  subscribe(channel: string, listener: (message: string) => void): Promise<void>;
  unsubscribe(channel: string): Promise<void>;
  on(event: "ready" | "end" | "reconnecting", listener: () => void): unknown;
  on(event: "error", listener: (error: Error) => void): unknown;
  off(event: string, listener: (...args: never[]) => void): unknown;
}
