// Session ownership in Redis: one key per session holding its owner's address, with an expiry the
// owner renews while the session lives (runtime/http/server/cluster.ts), so a dead owner's sessions are
// forgotten on their own.
import type { NodeAddress, SessionDirectory } from "../../runtime/scale/index.js";
import type { Redis } from "./client.js";

export class RedisSessionDirectory implements SessionDirectory {
  private readonly prefix: string;

  constructor(
    private readonly redis: Redis,
    options: { prefix: string },
  ) {
    this.prefix = options.prefix;
  }

  async claim(sessionId: string, owner: NodeAddress, ttlMs: number): Promise<void> {
    const record = JSON.stringify({ node: owner.node, url: owner.url });
    await this.redis.sendCommand([
      "SET",
      this.prefix + sessionId,
      record,
      "PX",
      String(Math.max(1, Math.floor(ttlMs))),
    ]);
  }

  async lookup(sessionId: string): Promise<NodeAddress | undefined> {
    const record = await this.redis.sendCommand<string | null>(["GET", this.prefix + sessionId]);
    if (record === null) return undefined;
    const parsed = JSON.parse(record) as { node?: unknown; url?: unknown };
    return typeof parsed.node === "string" && typeof parsed.url === "string"
      ? { node: parsed.node, url: parsed.url }
      : undefined;
  }

  async release(sessionId: string): Promise<void> {
    await this.redis.sendCommand(["DEL", this.prefix + sessionId]);
  }
}
