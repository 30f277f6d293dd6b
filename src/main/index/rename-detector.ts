/** A file that left or appeared, with its content hash. */
export interface FileSighting {
  path: string;
  hash: string;
}

/**
 * Pairs removals with additions of the same content seen within a short window: a rename arrives from the
 * watcher as an unlink and an add, in either order, sometimes in consecutive batches.
 */
export class RenameDetector {
  private removed: (FileSighting & { at: number })[] = [];
  private added: (FileSighting & { at: number })[] = [];

  constructor(private readonly windowMs = 2000) {}

  /** Records one batch's removals and additions; returns the renames they complete. */
  record(removed: FileSighting[], added: FileSighting[], now = Date.now()): { from: string; to: string }[] {
    const fresh = (entry: { at: number }) => now - entry.at < this.windowMs;
    this.removed = [...this.removed.filter(fresh), ...removed.map((entry) => ({ ...entry, at: now }))];
    this.added = [...this.added.filter(fresh), ...added.map((entry) => ({ ...entry, at: now }))];
    const renames: { from: string; to: string }[] = [];
    for (const gone of [...this.removed]) {
      const match = this.added.find((entry) => entry.hash === gone.hash && entry.path !== gone.path);
      if (!match || gone.hash === '') continue;
      renames.push({ from: gone.path, to: match.path });
      this.removed = this.removed.filter((entry) => entry !== gone);
      this.added = this.added.filter((entry) => entry !== match);
    }
    return renames;
  }
}
