import { describe, expect, it } from 'vitest';
import { chatMarkdown, noteLink, plainTitle } from '../../../src/main/export/chat-markdown';
import type { ChatMessage, ChatReference, ChatSession } from '../../../src/shared/chat-domain';
import { chatMessage } from '../../support/chat-message';

const at = '2026-11-24T10:15:00.000Z';

function reference(overrides: Partial<ChatReference>): ChatReference {
  return {
    path: 'Atomic notes.md',
    title: 'Atomic notes',
    kind: 'read',
    toolCallId: null,
    document: null,
    subpath: null,
    mode: null,
    tokens: null,
    summary: '',
    ...overrides,
  };
}

function message(overrides: Partial<ChatMessage>): ChatMessage {
  return chatMessage({ createdAt: at, updatedAt: at, ...overrides });
}

const session: ChatSession = {
  id: 's1',
  title: 'Why atomic notes?',
  createdAt: at,
  updatedAt: at,
  messageCount: 2,
  strategy: 'hybrid',
  compactions: [],
  documents: [
    { number: 1, path: 'Zettel/Atomic notes.md', title: 'Atomic notes' },
    { number: 2, path: 'Links.md', title: 'Links' },
  ],
  messages: [
    message({
      parts: [
        { type: 'text', step: 0, text: 'What does [[Atomic notes]] say?' },
        {
          type: 'attachment',
          step: 0,
          attachment: {
            id: 4,
            messageId: 1,
            name: 'paper.pdf',
            kind: 'pdf',
            pages: 12,
            bytes: 1000,
            tokens: 900,
            truncated: false,
          },
        },
      ],
      references: [reference({ path: 'Zettel/Atomic notes.md', kind: 'direct' })],
    }),
    message({
      id: 2,
      role: 'assistant',
      model: 'llama3.1:8b',
      parts: [
        {
          type: 'tool-call',
          step: 0,
          id: 'c1',
          name: 'search_notes',
          args: { query: 'atomic' },
          ok: true,
          output: '',
        },
        {
          type: 'tool-call',
          step: 0,
          id: 'c2',
          name: 'read_note',
          args: { note: 'Atomic notes', heading: 'Why' },
          ok: true,
          output: '',
        },
        { type: 'text', step: 1, text: 'One idea per note [1], linked to others [2]. Not [2023] or arr[7].' },
      ],
      references: [
        reference({ path: 'Zettel/Atomic notes.md', kind: 'search-hit', toolCallId: 'c1', document: 1 }),
        reference({ path: 'Links.md', title: 'Links', kind: 'search-hit', toolCallId: 'c1', document: 2 }),
        reference({
          path: 'Zettel/Atomic notes.md',
          kind: 'read',
          toolCallId: 'c2',
          document: 1,
          subpath: 'Why',
        }),
        reference({ path: 'Zettel/Atomic notes.md', kind: 'cited', document: 1, subpath: 'Why' }),
        reference({ path: 'Links.md', title: 'Links', kind: 'cited', document: 2 }),
      ],
    }),
  ],
};

describe('a chat as a Markdown note', () => {
  const markdown = chatMarkdown(session, new Date('2026-11-24T11:00:00.000Z'));

  it('starts with frontmatter naming the title, date, model and session', () => {
    expect(markdown.split('\n').slice(0, 9)).toEqual([
      '---',
      'title: "Why atomic notes?"',
      `date: ${at}`,
      'exported: 2026-11-24T11:00:00.000Z',
      'model: "llama3.1:8b"',
      'session: s1',
      'tags: [kasten-chat]',
      '---',
      '',
    ]);
  });

  it('turns citations into wikilinks to the cited notes, at the heading they were cited at', () => {
    expect(markdown).toContain(
      'One idea per note ([[Zettel/Atomic notes#Why|Atomic notes]]), linked to others ([[Links]]). Not [2023] or arr[7].',
    );
  });

  it('names the files attached to a question', () => {
    expect(markdown).toContain('*Attached: `paper.pdf` (12 pages)*');
  });

  it('folds the tool calls into short lines', () => {
    expect(markdown).toContain(
      '> [!info]- 2 tool calls\n> - search_notes "atomic" → 2 notes\n> - read_note Atomic notes → [[Zettel/Atomic notes#Why|Atomic notes]]',
    );
  });

  it('lists every note used with every way it was used', () => {
    expect(markdown).toContain(
      '## References\n\n- [[Zettel/Atomic notes|Atomic notes]] — mentioned, read, found by search, cited\n- [[Links]] — found by search, cited\n',
    );
  });

  it('shows a title holding links as the words the links show', () => {
    expect(plainTitle('What do [[Atomic notes]] and [[A/B#H|bee]] say?')).toBe(
      'What do Atomic notes and bee say?',
    );
  });

  it('links by path, with a label only when it differs', () => {
    expect(noteLink('A/B.md', 'B')).toBe('[[A/B|B]]');
    expect(noteLink('B.md', 'B', '^block')).toBe('[[B#^block]]');
    expect(noteLink('B.md', 'A [draft] | x')).toBe('[[B|A draft  x]]');
  });

  it('gives an interrupted answer’s tool calls the sizes the chat shows, not "0 notes"', () => {
    const call = (id: string, output: string | null, ok: boolean | null) => ({
      type: 'tool-call' as const,
      step: 0,
      id,
      name: 'read_note',
      args: { note: id },
      ok,
      output,
    });
    const interrupted = chatMarkdown(
      {
        ...session,
        messages: [
          message({
            id: 2,
            role: 'assistant',
            status: 'interrupted',
            parts: [call('Atomic notes', 'a'.repeat(2_100), true), call('Links', 'b'.repeat(843), true)],
          }),
          message({ id: 4, role: 'assistant', status: 'interrupted', parts: [call('Tags', null, null)] }),
        ],
      },
      new Date(at),
    );
    expect(interrupted).toContain(
      '> - read_note Atomic notes → 2.1k chars\n> - read_note Links → 843 chars\n',
    );
    expect(interrupted).toContain('> - read_note Tags → did not finish\n');
    expect(interrupted).not.toContain('0 notes');
  });

  it('titles the note with whole words where a long question’s title was cut with "…"', () => {
    const long = chatMarkdown(
      { ...session, title: 'What does [[Atomic notes]] say about slips, links and the reasons beh…' },
      new Date(at),
    );
    expect(long).toContain('title: "What does Atomic notes say about slips, links and the reasons"\n');
    expect(long).toContain('\n# What does Atomic notes say about slips, links and the reasons\n');
  });
});
