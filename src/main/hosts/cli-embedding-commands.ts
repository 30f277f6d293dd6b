import type { EmbeddingReport, EmbeddingStatus, RelatedNote } from '../../shared/embedding-domain';
import type { Embeddings } from '../embeddings/embedding-app';
import type { VaultIndex } from '../index/vault-index';

/** What the commands need of the app. */
export interface EmbeddingCliApp {
  index: Pick<VaultIndex, 'resolve'>;
  embeddings: Pick<Embeddings, 'service' | 'related'>;
  dispose(): Promise<void>;
}

export interface EmbeddingCommandArguments {
  command: 'embed' | 'related';
  vault: string;
  /** The note for `related`. */
  note?: string;
  json: boolean;
  limit: number;
}

export const embeddingCommandUsage = `  kasten embed <vault> [--json]                             embed what changed, for semantic search
       [--provider P] [--base-url URL] [--model NAME]       (the embedding model for this run)
  kasten related <vault> <note> [--limit N] [--json]        notes related to a note, and why`;

/** Runs `embed` or `related` on the app `open` gives for the vault; resolves with the exit code. */
export async function runEmbeddingCommand(
  args: EmbeddingCommandArguments,
  open: (vault: string) => Promise<EmbeddingCliApp>,
  stdout: (text: string) => void,
): Promise<number> {
  const app = await open(args.vault);
  try {
    const print = (value: unknown, text: () => string) =>
      stdout(args.json ? JSON.stringify(value, null, 2) : text());
    if (args.command === 'embed') {
      const report = await app.embeddings.service.run();
      const status = app.embeddings.service.status();
      print({ ...report, status }, () => describeEmbedding(report, status));
      return report.error === null ? 0 : 1;
    }
    const path = findNote(app, args.note ?? '');
    const related = await app.embeddings.related({ path, limit: args.limit });
    print({ note: path, ...related }, () => {
      const lines = related.notes.map(describeRelated);
      if (related.semantic) lines.push(`(Similar by words, not meaning: ${related.semantic.message}.)`);
      return lines.join('\n') || `Nothing is related to ${path}.`;
    });
    return 0;
  } finally {
    await app.dispose();
  }
}

/** A note given by path or by name, the way a wikilink would find it. */
function findNote(app: EmbeddingCliApp, note: string): string {
  const resolution = app.index.resolve({ target: note.replace(/^\/+/, ''), subpath: null }, '');
  if (resolution.path === null || resolution.kind !== 'note') {
    throw new Error(`No note "${note}" in this vault.`);
  }
  return resolution.path;
}

/** "Embedded 12 passages (40 kept, 3 notes read again) in 1.2 s; 52 passages have vectors from …". */
export function describeEmbedding(report: EmbeddingReport, status: EmbeddingStatus): string {
  const seconds = `${(report.ms / 1000).toFixed(1)} s`;
  const done = `${report.embedded} ${report.embedded === 1 ? 'passage' : 'passages'}`;
  const lines = [
    report.cancelled
      ? `Embedding cancelled after ${done} in ${seconds}.`
      : `Embedded ${done} (${report.reused} kept, ${report.notesChunked} notes read again) in ${seconds}.`,
  ];
  if (report.error) lines.push(`Failed: ${report.error}`);
  lines.push(
    `${status.embedded} passages have vectors` +
      (status.vectorsFrom ? ` from ${status.vectorsFrom}` : '') +
      (status.pending > 0 ? `; ${status.pending} wait for one.` : '.'),
  );
  if (status.notice) lines.push(status.notice);
  if (report.truncatedNotes.length > 0) {
    lines.push(`Only the first passages of ${report.truncatedNotes.join(', ')} are embedded: too long.`);
  }
  return lines.join('\n');
}

function describeRelated(note: RelatedNote): string {
  const missing = note.missingLink ? '  [not linked]' : '';
  return `${note.title} — ${note.path}  (${note.reasons.join('; ')})${missing}`;
}
