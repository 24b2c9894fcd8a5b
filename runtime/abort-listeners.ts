// One abort listener per caller's signal, however many requests carry it. An application that
// passes one signal (its shutdown signal, say) to many calls at once would otherwise get a
// listener per call in flight on it, and Node warns of a leak past ten
// (MaxListenersExceededWarning), though each is removed when its call ends.

interface Watch {
  readonly aborts: Set<() => void>;
  readonly listener: () => void;
}

export class AbortListeners {
  private readonly watches = new WeakMap<AbortSignal, Watch>();

  /** Calls `abort` when `signal` aborts; returns what stops that (call it when the request ends). */
  add(signal: AbortSignal, abort: () => void): () => void {
    let watch = this.watches.get(signal);
    if (!watch) {
      const aborts = new Set<() => void>();
      const listener = () => {
        this.watches.delete(signal);
        for (const each of [...aborts]) each();
      };
      watch = { aborts, listener };
      this.watches.set(signal, watch);
      signal.addEventListener("abort", listener, { once: true });
    }
    const current = watch;
    current.aborts.add(abort);
    return () => {
      current.aborts.delete(abort);
      // The last request gone: the signal keeps nothing of this side (it may live much longer).
      if (current.aborts.size > 0 || this.watches.get(signal) !== current) return;
      this.watches.delete(signal);
      signal.removeEventListener("abort", current.listener);
    };
  }
}
