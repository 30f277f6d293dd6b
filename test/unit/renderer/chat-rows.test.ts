import { describe, expect, it } from 'vitest';
import type { ChatMessage } from '../../../src/shared/chat-domain';
import type { SessionCompaction } from '../../../src/shared/context-domain';
import {
  chatRows,
  compactionLabel,
  newestCompaction,
} from '../../../src/renderer/src/features/chat/chat-rows';
import { chatMessage } from '../../support/chat-message';

const message = (id: number): ChatMessage =>
  chatMessage({
    id,
    sessionId: 's',
    role: id % 2 === 1 ? 'user' : 'assistant',
    parts: [{ type: 'text', step: 0, text: `message ${id}` }],
  });

const compaction = (id: number, coveredIds: number[]): SessionCompaction => ({
  id,
  text: `summary ${id}`,
  coveredIds,
  tokens: 10,
  replacedTokens: 100,
  focus: null,
  createdAt: '',
});

const shape = (rows: ReturnType<typeof chatRows>) =>
  rows.map((row) =>
    row.kind === 'message'
      ? row.message.id
      : { compaction: row.compaction.id, messages: row.messages.map((m) => m.id) },
  );

describe('which messages a compaction collapses', () => {
  const messages = [1, 2, 3, 4, 5, 6, 7, 8].map(message);

  it('shows every message when the session has no compaction', () => {
    expect(shape(chatRows(messages, []))).toEqual([1, 2, 3, 4, 5, 6, 7, 8]);
  });

  it('puts the covered messages behind one marker where the first of them was, the rest after it', () => {
    expect(shape(chatRows(messages, [compaction(1, [1, 2, 3, 4])]))).toEqual([
      { compaction: 1, messages: [1, 2, 3, 4] },
      5,
      6,
      7,
      8,
    ]);
  });

  it('uses the newest compaction only, which covers the older ones’ messages too', () => {
    const older = compaction(1, [1, 2]);
    const newer = compaction(2, [1, 2, 3, 4, 5, 6]);
    expect(shape(chatRows(messages, [older, newer]))).toEqual([
      { compaction: 2, messages: [1, 2, 3, 4, 5, 6] },
      7,
      8,
    ]);
    expect(newestCompaction([newer, older])).toBe(newer);
  });

  it('keeps the messages between covered ones in order, behind the marker, and deletes none', () => {
    const rows = chatRows(messages, [compaction(3, [3, 4, 6])]);
    expect(shape(rows)).toEqual([1, 2, { compaction: 3, messages: [3, 4, 6] }, 5, 7, 8]);
    const shown = rows.flatMap((row) => (row.kind === 'message' ? [row.message] : row.messages));
    expect(shown.map((m) => m.id).sort((a, b) => a - b)).toEqual([1, 2, 3, 4, 5, 6, 7, 8]);
  });

  it('shows no marker when none of the covered messages is loaded', () => {
    expect(shape(chatRows(messages, [compaction(4, [90, 91])]))).toEqual([1, 2, 3, 4, 5, 6, 7, 8]);
  });

  it('says how many messages the marker stands for', () => {
    expect(compactionLabel(1)).toBe('1 earlier message summarized');
    expect(compactionLabel(6)).toBe('6 earlier messages summarized');
  });
});
