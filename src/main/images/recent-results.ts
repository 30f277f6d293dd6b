/**
 * The results of an async function by key, kept for `keepMs` and at most `size` of them (the oldest go
 * first); a failed result is not kept.
 */
export class RecentResults<T> {
  private readonly entries = new Map<string, { at: number; value: Promise<T> }>();

  constructor(
    private readonly size: number,
    private readonly keepMs: number,
    private readonly now: () => number = Date.now,
  ) {}

  get(key: string, compute: () => Promise<T>): Promise<T> {
    const entry = this.entries.get(key);
    if (entry && this.now() - entry.at < this.keepMs) return entry.value;
    this.entries.delete(key);
    const value = compute();
    value.catch(() => this.entries.delete(key));
    this.entries.set(key, { at: this.now(), value });
    while (this.entries.size > this.size) this.entries.delete(this.entries.keys().next().value!);
    return value;
  }
}
