import type { ContextItemInput, NotePassage } from '../context-types';
import { chunkNote } from '../../embeddings/chunk-note';
import type { TextVectors } from '../../embeddings/text-vectors';

import { scoreRelevance, type Relevance } from './relevance';

export interface PinnedSource {
  path: string;
  title: string;
  content: string;
}

/** Numbers notes for citations, for the whole session (ChatStore.documentNumber). */
type DocumentNumbers = (path: string, title: string) => number;

const passagesNotice =
  'Only the passages of this pinned note most relevant to the question: call read_note for the rest.';

/**
 * A pinned note as a request item: the whole note as a numbered document, and, when it is longer than
 * pinned notes may be (`wholeLimit`, counted with `tokens` as the context engine counts for the model),
 * its passages scored against the question so the context engine can give the most relevant ones instead.
 */
export async function pinnedItem(
  note: PinnedSource,
  question: string,
  wholeLimit: number,
  tokens: (text: string) => number,
  numbers: DocumentNumbers,
  vectors: TextVectors | null,
  signal: AbortSignal,
): Promise<{ item: ContextItemInput; relevance: Relevance | null }> {
  const document = numbers(note.path, note.title);
  const head = { document, title: note.title, path: note.path, pinned: true };
  const text = JSON.stringify({ ...head, content: note.content });
  const item: ContextItemInput = {
    kind: 'pinned',
    label: note.title,
    path: note.path,
    include: 'manual',
    text,
    readHint: `call read_note with "${note.path}"`,
  };
  if (tokens(text) <= wholeLimit) return { item, relevance: null };
  const chunks = chunkNote(note.title, note.content).chunks;
  const relevance = await scoreRelevance(
    vectors,
    question,
    chunks.map((chunk) => `${chunk.headingPath.join(' > ')}\n${chunk.text}`),
    signal,
  );
  const scored: NotePassage[] = chunks.map((chunk, position) => ({
    text: chunk.text,
    score: relevance.scores[position] ?? 0,
    position,
    heading: chunk.headingPath.join(' > '),
  }));
  // The passages about the question; when none is, the note's beginning (what it says first).
  const relevant = scored.filter((passage) => passage.score >= relevance.minimum);
  const passages =
    relevant.length > 0
      ? relevant
      : scored.map((passage) => ({ ...passage, score: 1 / (1 + passage.position) }));
  item.passages = passages;
  item.score = Math.round(Math.max(0, ...relevance.scores) * 100) / 100;
  item.excerpt = (chosen) =>
    JSON.stringify({
      ...head,
      note: passagesNotice,
      passages: chosen.map((passage) => ({ heading: passage.heading, content: passage.text })),
    });
  return { item, relevance };
}

/** What pinned notes need to become items of one answer. */
export interface PinnedSources {
  question: string;
  /** What pinned notes may take whole, in the unit of `tokens`. */
  pinnedLimit: number;
  /** A text's tokens as the context engine counts them for the model (calibrated). */
  tokens: (text: string) => number;
  numbers: DocumentNumbers;
  signal: AbortSignal;
  index: { note(path: string): { path: string; title: string } | null };
  readNote: (path: string) => Promise<{ content: string }>;
  vectors: TextVectors | null;
}

/** A chat's pinned notes as items of one answer; a note deleted since is a notice instead. */
export async function pinnedItems(
  rows: readonly { key: string; title: string }[],
  sources: PinnedSources,
): Promise<{ items: ContextItemInput[]; notices: string[] }> {
  const items: ContextItemInput[] = [];
  const notices: string[] = [];
  for (const row of rows) {
    const note = sources.index.note(row.key);
    const content = note
      ? await sources.readNote(row.key).then(
          (file) => file.content,
          () => null,
        )
      : null;
    if (!note || content === null) {
      notices.push(`The pinned note “${row.title}” is gone: it was deleted or moved out of the vault.`);
      continue;
    }
    const pinned = await pinnedItem(
      { path: note.path, title: note.title, content },
      sources.question,
      sources.pinnedLimit,
      sources.tokens,
      sources.numbers,
      sources.vectors,
      sources.signal,
    );
    items.push(pinned.item);
    if (pinned.relevance?.notice) notices.push(pinned.relevance.notice);
  }
  return { items, notices };
}
