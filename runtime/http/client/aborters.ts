// The AbortControllers of a client transport's HTTP requests. Each fetch gets a controller of
// its own, forgotten when the request is over, and closing the transport aborts those still
// in flight. One long-lived signal shared by every fetch would do the same for close(), but
// fetch (undici) leaves an abort listener on the signal until its request is garbage-collected:
// a busy client piles up thousands of them and Node warns of a leak (issue 19).

export class Aborters {
  private readonly live = new Set<AbortController>();
  private closed = false;

  /** A controller for one request; `release` it when the request is over. Aborted already after closeAll(). */
  take(): AbortController {
    const controller = new AbortController();
    if (this.closed) controller.abort();
    else this.live.add(controller);
    return controller;
  }

  release(controller: AbortController): void {
    this.live.delete(controller);
  }

  /** Aborts every request in flight, and every one taken from now on. */
  closeAll(): void {
    this.closed = true;
    for (const controller of this.live) controller.abort();
    this.live.clear();
  }
}
