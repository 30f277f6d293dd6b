import type {
  EmbeddingReport,
  EmbeddingStatus,
  RelatedNote,
  SemanticUnavailable,
} from '../../shared/embedding-domain';
import { sameNameLabel } from '../../shared/embedding-domain';
import type { AppEvents } from '../app-events';
import { findNote } from './cli-app';
import { call, type CliHandlers } from './cli-call';

/** What the commands need of the app. */
export interface EmbeddingCliApp extends CliHandlers {
  events: Pick<AppEvents, 'on'>;
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

export interface EmbeddingCommandEnvironment {
  stdout: (text: string) => void;
  /** Progress, and why an answer is by words rather than meaning. */
  stderr: (text: string) => void;
  /** Resolves on Ctrl+C: the run stops and the passages embedded so far stay. */
  untilStopped: () => Promise<void>;
}

export const embeddingCommandUsage = `  kasten embed <vault> [--json]                             embed what changed, for search by meaning
  kasten related <vault> <note> [--limit N] [--json]        notes related to a note, and why`;

const howToTurnOn =
  'give one for this run with --embed-model NAME (and --embed-provider, --embed-url), or choose one in Settings';

/** Runs `embed` or `related` on the app `open` gives for the vault; resolves with the exit code. */
export async function runEmbeddingCommand(
  args: EmbeddingCommandArguments,
  open: (vault: string) => Promise<EmbeddingCliApp>,
  env: EmbeddingCommandEnvironment,
): Promise<number> {
  const app = await open(args.vault);
  try {
    const print = (value: unknown, text: () => string) =>
      env.stdout(args.json ? JSON.stringify(value, null, 2) : text());
    if (args.command === 'embed') return await embed(app, args.json, print, env);
    const path = await findNote(app, args.note ?? '');
    const related = await call(app, 'notes:related', { path, limit: args.limit });
    print(
      { note: path, ...related },
      () => related.notes.map(describeRelated).join('\n') || `Nothing is related to ${path}.`,
    );
    // With embeddings off the reasons say "similar words" already; otherwise the user expected meaning.
    if (related.semantic && related.semantic.code !== 'off')
      env.stderr(`kasten: similar by words, not meaning, because ${related.semantic.message}.`);
    return 0;
  } finally {
    await app.dispose();
  }
}

/** Embeds what changed, with progress on stderr; Ctrl+C keeps what is done. */
async function embed(
  app: EmbeddingCliApp,
  json: boolean,
  print: (value: unknown, text: () => string) => void,
  env: EmbeddingCommandEnvironment,
): Promise<number> {
  if (!(await call(app, 'embeddings:status', undefined)).settings.enabled)
    throw new Error(`Embeddings are off: ${howToTurnOn}.`);
  let shown = 0;
  const unsubscribe = app.events.on('embeddings:progress', ({ phase, done, total }) => {
    if (json) return;
    // About twenty lines for a large vault; none for a run with little to do.
    if (phase === 'embedding' && total >= 100 && done < total && done - shown >= total / 20) {
      shown = done;
      env.stderr(`Embedding: ${done} of ${total} passages`);
    }
  });
  void env.untilStopped().then(() => call(app, 'embeddings:cancel', undefined));
  try {
    const report = await call(app, 'embeddings:run', undefined);
    const status = await call(app, 'embeddings:status', undefined);
    print({ ...report, status }, () => describeEmbedding(report, status));
    if (report.error) env.stderr(`kasten: ${report.error}`);
    return report.error === null && !report.cancelled ? 0 : 1;
  } finally {
    unsubscribe();
  }
}

/** "Embedded 12 passages (40 kept, 3 notes read again) in 1.2 s.\n52 passages have vectors from …". */
export function describeEmbedding(report: EmbeddingReport, status: EmbeddingStatus): string {
  const seconds = `${(report.ms / 1000).toFixed(1)} s`;
  const done = `${report.embedded} ${report.embedded === 1 ? 'passage' : 'passages'}`;
  const lines = [
    report.cancelled
      ? `Embedding cancelled after ${done} in ${seconds}.`
      : `Embedded ${done} (${report.reused} kept, ${report.notesChunked} notes read again) in ${seconds}.`,
    `${status.embedded} passages have vectors` +
      (status.vectorsFrom ? ` from ${status.vectorsFrom}` : '') +
      (status.pending > 0 ? `; ${status.pending} wait for one.` : '.'),
  ];
  if (status.notice) lines.push(status.notice);
  if (report.truncatedNotes.length > 0) {
    lines.push(`Only the first passages of ${report.truncatedNotes.join(', ')} are embedded: too long.`);
  }
  return lines.join('\n');
}

/** "Title — path  (links here; similar: 0.82)  [not linked]", or "[same name, in ko/]". */
export function describeRelated(note: RelatedNote): string {
  const missing = note.missingLink ? '  [not linked]' : '';
  const sameName = note.sameNameIn === null ? '' : `  [${sameNameLabel(note.sameNameIn)}]`;
  return `${note.title} — ${note.path}  (${note.reasons.join('; ')})${missing}${sameName}`;
}

/**
 * The line `search` prints on stderr when it answered by words in semantic or hybrid mode, with what
 * to do about it when there is something to do.
 */
export function describeLexicalOnly(why: SemanticUnavailable): string {
  const remedy =
    why.code === 'off'
      ? `; to search by meaning, ${howToTurnOn}`
      : why.code === 'not-built'
        ? '; run `kasten embed` on the vault first'
        : '';
  return `kasten: lexical only, because ${why.message}${remedy}.`;
}
