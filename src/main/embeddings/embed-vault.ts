import type { EmbeddingProgress, EmbeddingReport } from '../../shared/embedding-domain';
import type { EmbeddingModel } from '../llm/embedding-model';
import { ModelError } from '../llm/llm-types';
import { chunkInput, chunkNote, type ChunkOptions } from './chunk-note';
import type { ChunkStore } from './chunk-store';
import { normalized } from './vectors';

/** What one run works with; the service makes one per run. */
export interface EmbedVaultContext {
  store: ChunkStore;
  model: EmbeddingModel;
  readNote: (path: string) => Promise<{ content: string }>;
  signal: AbortSignal;
  batchSize: number;
  chunkOptions?: ChunkOptions;
  /** Resolves when the index database may be written (no index pass holds it); throws once it is closed. */
  writable: () => Promise<void>;
  /** Resolves when the embedding server may be used (no chat answer is streaming from it). */
  serverFree: () => Promise<void>;
  progress: (phase: NonNullable<EmbeddingProgress['phase']>, done: number, total: number) => void;
  notice: (message: string) => void;
  /** Passages or vectors changed: what searches hold in memory is out of date. */
  changed: () => void;
  /** Filled in as the run goes, so that a cancelled run reports what it did. */
  report: EmbeddingReport;
}

/**
 * Brings the vectors of the open vault up to date: cuts the notes that changed into passages (keeping
 * the vectors of passages whose text is unchanged), then embeds the passages without one, a batch per
 * request. Everything written stays when the run is cancelled or fails.
 */
export async function embedVault(context: EmbedVaultContext): Promise<void> {
  const { store, model } = context;
  await context.writable();
  adoptModel(context);
  store.useChunking(chunkingVersion(context.chunkOptions));
  await chunkStaleNotes(context);
  await context.writable();
  store.dropOrphans();
  context.changed();

  // A server that starts answering with vectors of another length (another model under the same name,
  // a new `dimensions` setting) makes every stored vector useless: they are all embedded again, once.
  let restarted = false;
  for (;;) {
    const pending = store.pendingHashes();
    let done = 0;
    context.progress('embedding', done, pending.length);
    let restart = false;
    for (let start = 0; start < pending.length && !restart; start += context.batchSize) {
      context.signal.throwIfAborted();
      await context.serverFree();
      const batch: { hash: string; input: string }[] = [];
      for (const hash of pending.slice(start, start + context.batchSize)) {
        const input = store.inputFor(hash, chunkInput);
        if (input !== null) batch.push({ hash, input });
      }
      const vectors = await model.embed(
        batch.map((entry) => entry.input),
        'document',
        { signal: context.signal },
      );
      context.signal.throwIfAborted();
      await context.writable();
      const dimensions = vectors[0]?.length ?? 0;
      const origin = store.origin();
      const stored = origin?.dimensions ?? null;
      if (stored !== null && stored !== dimensions && dimensions > 0) {
        if (restarted) {
          throw new ModelError(
            `${model.identity} keeps changing the length of its vectors (${stored}, then ${dimensions}).`,
            'bad-request',
          );
        }
        context.notice(
          `${model.identity} now returns vectors of ${dimensions} dimensions where the stored ones have ` +
            `${stored}: every passage is embedded again.`,
        );
        store.dropVectors();
        restarted = restart = true;
      }
      if (dimensions > 0) store.setOrigin({ identity: model.identity, dimensions });
      store.storeVectors(
        batch.map((entry, index) => ({ hash: entry.hash, vector: normalized(vectors[index]!) })),
      );
      context.changed();
      context.report.embedded += batch.length;
      if (!restart) {
        // Counted by hashes: one whose passages went with their notes meanwhile is done too.
        done = Math.min(start + context.batchSize, pending.length);
        context.progress('embedding', done, pending.length);
      }
    }
    if (!restart) return;
  }
}

export function emptyReport(): EmbeddingReport {
  return {
    notesChunked: 0,
    embedded: 0,
    reused: 0,
    truncatedNotes: [],
    cancelled: false,
    error: null,
    ms: 0,
  };
}

/** Names the way notes are cut: a new one (or other options) cuts every note again. */
function chunkingVersion(options: ChunkOptions = {}): string {
  return JSON.stringify({ version: 1, ...options });
}

/** Vectors made by another model (or on another server) are dropped before anything is embedded. */
function adoptModel({ store, model, notice, changed }: EmbedVaultContext): void {
  const origin = store.origin();
  if (origin?.identity === model.identity) return;
  if (origin !== null && store.vectorCount() > 0) {
    notice(
      `The embedding model changed from ${origin.identity} to ${model.identity}: the vectors of the old ` +
        'one were dropped and every passage is embedded again.',
    );
  }
  store.dropVectors();
  store.setOrigin({ identity: model.identity, dimensions: null });
  changed();
}

/** Cuts every note that changed since it was last cut (or never was) into passages. */
async function chunkStaleNotes(context: EmbedVaultContext): Promise<void> {
  const { store, report } = context;
  const stale = store.staleNotes();
  context.progress('chunking', 0, stale.length);
  for (const [done, note] of stale.entries()) {
    context.signal.throwIfAborted();
    let content = '';
    // A note without words (empty, binary, unreadable when indexed) has nothing to embed.
    if (note.words > 0) {
      try {
        ({ content } = await context.readNote(note.path));
      } catch {
        // Gone or unreadable since it was indexed: the next index pass says so, and changes its hash.
        content = '';
      }
    }
    const { chunks, truncated } = chunkNote(note.title, content, context.chunkOptions);
    if (truncated) report.truncatedNotes.push(note.path);
    await context.writable();
    report.reused += store.replaceChunks(note.path, note.hash, chunks);
    report.notesChunked++;
    context.progress('chunking', done + 1, stale.length);
  }
  if (stale.length > 0) context.changed();
}
