/** The timer functions the loader uses; tests pass fake ones. */
export interface Timers {
  setTimeout(run: () => void, ms: number): unknown;
  clearTimeout(handle: unknown): void;
}

const realTimers: Timers = {
  setTimeout: (run, ms) => globalThis.setTimeout(run, ms),
  clearTimeout: (handle) => globalThis.clearTimeout(handle as ReturnType<typeof globalThis.setTimeout>),
};

/**
 * Runs `load` a while after the last request for it, never twice at once: a request made while a load is
 * running makes one more load once it ends, so the last state asked about is always the one loaded.
 */
export class DebouncedLoader {
  private timer: unknown = null;
  private running = false;
  private again = false;

  constructor(
    private readonly load: () => Promise<void>,
    private readonly timers: Timers = realTimers,
  ) {}

  /** Loads `delayMs` from now, replacing an earlier request that has not started. */
  schedule(delayMs: number): void {
    if (this.timer !== null) this.timers.clearTimeout(this.timer);
    this.timer = this.timers.setTimeout(() => {
      this.timer = null;
      void this.run();
    }, delayMs);
  }

  private async run(): Promise<void> {
    if (this.running) {
      this.again = true;
      return;
    }
    this.running = true;
    try {
      await this.load();
    } catch {
      // `load` records its own errors; a failure must not stop later loads.
    } finally {
      this.running = false;
    }
    if (this.again) {
      this.again = false;
      await this.run();
    }
  }
}
