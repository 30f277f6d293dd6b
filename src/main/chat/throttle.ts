/**
 * Runs `work` at most once per interval however often it is asked for: a request inside the interval is
 * served once the interval is up (a trailing run), so the last state is never left behind.
 */
export class Throttle {
  private lastRun = Number.NEGATIVE_INFINITY;
  private timer: NodeJS.Timeout | null = null;
  private due = Number.POSITIVE_INFINITY;

  constructor(
    private readonly work: () => void,
    private readonly intervalMs: number,
  ) {}

  /** Asks for a run no later than `withinMs` after the last one (default: the interval). */
  request(withinMs = this.intervalMs): void {
    const now = Date.now();
    const due = Math.max(now, this.lastRun + withinMs);
    if (due <= now) return this.run();
    if (this.timer !== null && this.due <= due) return;
    if (this.timer !== null) clearTimeout(this.timer);
    this.due = due;
    this.timer = setTimeout(() => this.run(), due - now);
  }

  /** Drops a pending run. */
  cancel(): void {
    if (this.timer !== null) clearTimeout(this.timer);
    this.timer = null;
    this.due = Number.POSITIVE_INFINITY;
  }

  private run(): void {
    this.cancel();
    this.lastRun = Date.now();
    this.work();
  }
}
