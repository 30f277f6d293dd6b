/** Index passes run one at a time, in the order queued; one that fails does not stop the next. */
export class PassQueue {
  private tail: Promise<unknown> = Promise.resolve();
  private runningNow = 0;

  /** Whether a pass is running (not merely queued). */
  get running(): boolean {
    return this.runningNow > 0;
  }

  /** Queues `work`; resolves or rejects as it does. */
  run<T>(work: () => Promise<T>): Promise<T> {
    const run = this.tail
      .catch(() => {})
      .then(async () => {
        this.runningNow++;
        try {
          return await work();
        } finally {
          this.runningNow--;
        }
      });
    this.tail = run.catch(() => {});
    return run;
  }

  /** Runs `then` once the passes queued so far have ended (closing their database), not as a pass. */
  after(then: () => void): void {
    this.tail = this.tail.catch(() => {}).then(then);
  }

  /** Resolves once everything queued so far has ended, failed or not. */
  async settled(): Promise<void> {
    await this.tail.catch(() => {});
  }
}
