/** Settles as `work` does, or rejects with the signal's reason as soon as it aborts. */
export function raceAbort<T>(work: Promise<T>, signal?: AbortSignal): Promise<T> {
  if (!signal) return work;
  return new Promise<T>((resolve, reject) => {
    const onAbort = (): void => reject(signal.reason);
    if (signal.aborted) return onAbort();
    signal.addEventListener('abort', onAbort, { once: true });
    work.then(resolve, reject).finally(() => signal.removeEventListener('abort', onAbort));
  });
}

/** Files are read one after another, so a file's timeout counts from when its own reading starts. */
export class ReadingTurns {
  private last: Promise<unknown> = Promise.resolve();

  /** Resolves with the function that ends the caller's turn; rejects if `signal` aborts while it waits. */
  async take(signal?: AbortSignal): Promise<() => void> {
    const previous = this.last;
    let release = (): void => {};
    const done = new Promise<void>((resolve) => (release = resolve));
    // The next turn waits for this one and every earlier one, even when this caller gives up early.
    this.last = Promise.all([previous, done]);
    try {
      await raceAbort(previous, signal);
    } catch (error) {
      release();
      throw error;
    }
    return release;
  }
}
