import { setTimeout as sleep } from 'node:timers/promises';
import type {
  EmbeddingProgress,
  EmbeddingReport,
  EmbeddingSettings,
  EmbeddingStatus,
  SemanticHit,
  SemanticResult,
  SemanticUnavailable,
  SimilarNote,
} from '../../shared/embedding-domain';
import { AppError } from '../app-error';
import type { EmbeddingModel } from '../llm/embedding-model';
import { ModelError } from '../llm/llm-types';
import type { SqliteDatabase } from '../storage/database';
import type { ChunkOptions } from './chunk-note';
import { ChunkStore } from './chunk-store';
import { embedVault, emptyReport } from './embed-vault';
import { lowerFirst, notBuilt, unavailability } from './semantic-availability';
import { centroid } from './vectors';
import { VectorSearch, withSnippet, type FoundPassage, type VectorSearchOptions } from './vector-search';

/** The vault index as embedding sees it (VaultIndex is one). */
export interface EmbeddingIndex {
  /** The open vault's index database; throws `no-vault` when none is open. */
  database(): SqliteDatabase;
  /** Resolves when no index pass is running. */
  whenIdle(): Promise<void>;
}

export interface EmbeddingServiceOptions {
  index: EmbeddingIndex;
  readNote: (path: string) => Promise<{ content: string }>;
  settings: () => EmbeddingSettings;
  /** The model of the settings, or null when embedding is off. */
  model: () => EmbeddingModel | null;
  /** True while the embedding server should be left alone (a chat answer streams from it): runs pause. */
  busy?: () => boolean;
  onProgress?: (progress: EmbeddingProgress) => void;
  /** Things the user should know: vectors dropped because the model changed, and so on. */
  onNotice?: (message: string) => void;
  /** Passages per request (default 32). */
  batchSize?: number;
  chunkOptions?: ChunkOptions;
  search?: VectorSearchOptions;
  /** How often a paused run looks whether it may go on (default 250 ms). */
  pausePollMs?: number;
}

/** Thrown inside a run when the vault it works on was closed. */
class VaultClosed extends Error {}

const progressEveryMs = 100;
/**
 * How far from the baseline towards the best match a note must be to be found (see standingOut): a
 * query may ask for two things, each note holding one; a similar note, to be worth a link, is close.
 */
const searchShare = 0.3;
const similarShare = 0.5;

/**
 * Semantic search over the open vault: keeps a vector per passage of every note (embedding what changed,
 * in the background, cancellable), finds notes by meaning and notes similar to a note. Search never
 * fails because of embeddings: it answers why it cannot help instead.
 */
export class EmbeddingService {
  private controller = new AbortController();
  private queue: Promise<unknown> = Promise.resolve();
  private running = 0;
  private current: EmbeddingProgress = { state: 'idle', phase: null, done: 0, total: 0, error: null };
  private lastProgressAt = 0;
  private notice: string | null = null;
  private readonly stores = new WeakMap<SqliteDatabase, ChunkStore>();
  private readonly search: VectorSearch;

  constructor(private readonly options: EmbeddingServiceOptions) {
    this.search = new VectorSearch(options.search);
  }

  /**
   * Embeds what changed in the open vault since the last run; queued after a running one. Resolves with
   * what was done, also when the run was cancelled or the server failed (`error`); rejects only when no
   * embedding model is configured or no vault is open.
   */
  run(signal?: AbortSignal): Promise<EmbeddingReport> {
    const model = this.options.model();
    if (!model) {
      return Promise.reject(
        new AppError(
          'invalid-input',
          'No embedding model is configured: choose one in Settings to search by meaning.',
        ),
      );
    }
    // Taken now, so cancel() also drops runs still waiting behind the running one.
    const cancelled = this.controller.signal;
    const combined = signal ? AbortSignal.any([cancelled, signal]) : cancelled;
    const run = this.queue.then(() => this.execute(model, combined));
    this.queue = run.catch(() => {});
    return run;
  }

  /** Stops the running and queued runs; the passages embedded so far stay. */
  cancel(): void {
    this.controller.abort();
    this.controller = new AbortController();
  }

  status(): EmbeddingStatus {
    const settings = this.options.settings();
    const store = this.openStore();
    const origin = store?.origin() ?? null;
    const counts = store?.counts() ?? { embedded: 0, pending: 0 };
    const unavailable = store
      ? (this.unavailable(store, this.options.model()) ??
        (counts.embedded === 0 ? notBuilt(this.current) : null))
      : { code: 'not-built', message: 'no vault is open' };
    return {
      ...this.current,
      state: settings.enabled || this.running > 0 ? this.current.state : 'off',
      settings,
      ...counts,
      vectorsFrom: origin?.identity ?? null,
      dimensions: origin?.dimensions ?? null,
      notice: this.notice,
      unavailable: unavailable?.message ?? null,
    };
  }

  /** Notes whose passages are closest in meaning to `query`, best first, each with its closest passage. */
  async semanticSearch(
    query: string,
    limit = 20,
    filter: { folder?: string; tag?: string } = {},
  ): Promise<SemanticResult<SemanticHit[]>> {
    const found = await this.semanticPassages(query, limit, filter);
    return found.ok ? { ok: true, value: found.value.map(withSnippet) } : found;
  }

  /** As semanticSearch, each hit with its passage as stored rather than as a snippet. */
  async semanticPassages(
    query: string,
    limit = 20,
    filter: { folder?: string; tag?: string } = {},
  ): Promise<SemanticResult<FoundPassage[]>> {
    const model = this.options.model();
    const store = this.storeOf(this.options.index.database());
    const unavailable = this.unavailable(store, model);
    if (unavailable || !model) return { ok: false, unavailable: unavailable ?? notBuilt(this.current) };
    const dimensions = store.origin()!.dimensions!;
    const matrix = this.search.matrix(store, dimensions, this.running > 0);
    if (matrix.rows === 0) return { ok: false, unavailable: notBuilt(this.current) };
    if (query.trim() === '') return { ok: true, value: [] };
    let vector: Float32Array;
    try {
      vector = await this.search.queryVector(model, query, dimensions);
    } catch (error) {
      if (!(error instanceof ModelError)) throw error;
      return { ok: false, unavailable: { code: 'failed', message: lowerFirst(error.message) } };
    }
    if (vector.length !== dimensions)
      return { ok: false, unavailable: this.lengthChanged(store, vector.length) };
    const allowed = filter.folder || filter.tag ? store.notesMatching(filter.folder, filter.tag) : null;
    const matches = matrix.nearestNotes(vector, limit, allowed ? (path) => allowed.has(path) : undefined);
    return { ok: true, value: this.search.passages(store, matrix.standingOut(vector, matches, searchShare)) };
  }

  /**
   * Notes closest in meaning to the note at `path`: the mean direction of its passages against every
   * other note's passages, each note by its closest one.
   */
  similarNotes(path: string, limit = 10): SemanticResult<SimilarNote[]> {
    const store = this.storeOf(this.options.index.database());
    const unavailable = this.unavailable(store, this.options.model());
    if (unavailable) return { ok: false, unavailable };
    const matrix = this.search.matrix(store, store.origin()!.dimensions!, this.running > 0);
    if (matrix.rows === 0) return { ok: false, unavailable: notBuilt(this.current) };
    const own = matrix.vectorsOf(path);
    if (own.length === 0) {
      return { ok: false, unavailable: { code: 'no-note', message: `${path} has no embedded passages yet` } };
    }
    const direction = centroid(own);
    const matches = matrix.nearestNotes(direction, limit, (other) => other !== path);
    return {
      ok: true,
      value: this.search.hits(store, matrix.standingOut(direction, matches, similarShare, path)),
    };
  }

  /** Stops the runs and resolves once the running one has let go of the index database. */
  async dispose(): Promise<void> {
    this.cancel();
    await this.queue;
    this.search.release();
  }

  private async execute(model: EmbeddingModel, signal: AbortSignal): Promise<EmbeddingReport> {
    const started = performance.now();
    const report = emptyReport();
    this.running++;
    this.report({ state: 'running', phase: null, done: 0, total: 0, error: null }, true);
    try {
      await this.options.index.whenIdle();
      const db = this.options.index.database();
      await embedVault({
        store: this.storeOf(db),
        model,
        readNote: this.options.readNote,
        signal,
        batchSize: this.options.batchSize ?? 32,
        chunkOptions: this.options.chunkOptions,
        writable: () => this.writable(db),
        serverFree: () => this.serverFree(signal),
        // Every batch is reported (they are far apart); notes being cut, at most every 100 ms.
        progress: (phase, done, total) =>
          this.report(
            { state: 'running', phase, done, total, error: null },
            phase === 'embedding' || done === 0 || done === total,
          ),
        notice: (message) => this.tell(message),
        changed: () => this.search.invalidate(),
        report,
      });
      this.report({ ...this.current, state: 'idle', error: null }, true);
    } catch (error) {
      if (signal.aborted || error instanceof VaultClosed) {
        report.cancelled = true;
        this.report({ ...this.current, state: 'cancelled' }, true);
      } else if (error instanceof ModelError) {
        report.error = error.message;
        this.report({ ...this.current, state: 'error', error: error.message }, true);
      } else {
        this.report({ ...this.current, state: 'error', error: (error as Error).message }, true);
        throw error;
      }
    } finally {
      this.running--;
      this.search.invalidate();
      report.ms = Math.round(performance.now() - started);
    }
    return report;
  }

  /** Why semantic search cannot answer now (see unavailability), or null when it may. */
  private unavailable(store: ChunkStore, model: EmbeddingModel | null): SemanticUnavailable | null {
    const enabled = model !== null && this.options.settings().enabled;
    return unavailability(enabled ? model : null, store.origin(), this.current);
  }

  /** The query's vector now returns another length than the stored ones: they are all made again. */
  private lengthChanged(store: ChunkStore, dimensions: number): SemanticUnavailable {
    const stored = store.origin()?.dimensions ?? 0;
    this.tell(
      `${store.origin()?.identity ?? 'The embedding model'} now returns vectors of ${dimensions} dimensions ` +
        `where the stored ones have ${stored}: every passage is embedded again.`,
    );
    store.dropVectors();
    store.setOrigin({ identity: store.origin()?.identity ?? '', dimensions: null });
    this.search.invalidate();
    // Nothing may be waiting to be embedded, so no run would otherwise notice.
    void this.run().catch(() => {});
    return { code: 'rebuilding', message: 'the embedding model now returns vectors of another length' };
  }

  /** Waits while an index pass holds the database; throws VaultClosed once the vault is closed. */
  private async writable(db: SqliteDatabase): Promise<void> {
    for (;;) {
      if (!db.open || this.openStore()?.db !== db) throw new VaultClosed();
      if (!db.inTransaction) return;
      await this.options.index.whenIdle();
      await sleep(20);
    }
  }

  private async serverFree(signal: AbortSignal): Promise<void> {
    const busy = this.options.busy;
    if (!busy?.()) return;
    const before = this.current;
    this.report({ ...before, state: 'paused' }, true);
    while (busy()) await sleep(this.options.pausePollMs ?? 250, undefined, { signal });
    this.report({ ...before, state: 'running' }, true);
  }

  private openStore(): ChunkStore | null {
    try {
      return this.storeOf(this.options.index.database());
    } catch {
      return null;
    }
  }

  private storeOf(db: SqliteDatabase): ChunkStore {
    let store = this.stores.get(db);
    if (!store) {
      store = new ChunkStore(db);
      this.stores.set(db, store);
    }
    return store;
  }

  private tell(message: string): void {
    this.notice = message;
    this.options.onNotice?.(message);
  }

  private report(progress: EmbeddingProgress, force: boolean): void {
    const now = performance.now();
    this.current = { ...progress };
    if (!force && now - this.lastProgressAt < progressEveryMs) return;
    this.lastProgressAt = now;
    this.options.onProgress?.(this.current);
  }
}
