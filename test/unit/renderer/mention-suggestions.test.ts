import { describe, expect, it } from 'vitest';
import {
  mentionBefore,
  mentionCandidates,
  mentionSuggestions,
  withoutMention,
} from '../../../src/renderer/src/features/chat/mention-suggestions';

describe('@ completion', () => {
  it('finds the @query before the caret, with spaces, but not in an e-mail address', () => {
    expect(mentionBefore('Answer @Pir', 11)).toEqual({ start: 7, query: 'Pir' });
    expect(mentionBefore('@', 1)).toEqual({ start: 0, query: '' });
    expect(mentionBefore('(@Pirate voi', 12)).toEqual({ start: 1, query: 'Pirate voi' });
    expect(mentionBefore('mail me@example.org', 19)).toBeNull();
    expect(mentionBefore('an @ alone', 5)).toBeNull();
    expect(mentionBefore('@one\nnext', 9)).toBeNull();
    // Only what is before the caret counts.
    expect(mentionBefore('@Pirate and more', 4)).toEqual({ start: 0, query: 'Pir' });
  });

  it('takes the @query out, leaving one space between the words around it', () => {
    expect(withoutMention('Be brief @Pir', 9, 13)).toEqual({ text: 'Be brief', caret: 8 });
    expect(withoutMention('Be @Pir brief', 3, 7)).toEqual({ text: 'Be brief', caret: 2 });
    expect(withoutMention('@Pir', 0, 4)).toEqual({ text: '', caret: 0 });
  });

  const rule = (name: string, include: 'always' | 'manual' | 'agent', active = false) => ({
    path: `_kasten/rules/${name}.md`,
    name,
    include,
    description: null,
    tokens: 10,
    warning: null,
    active,
  });
  const items = {
    rulesFolder: '_kasten/rules',
    rules: [rule('Pirate voice', 'manual'), rule('Cite sources', 'always', true)],
    tools: [
      {
        name: 'mcp__weather__forecast',
        source: 'mcp' as const,
        server: { id: 'weather', name: 'Weather' },
        description: 'Forecast',
        include: 'manual' as const,
        tokens: 40,
        active: false,
      },
    ],
    pinned: [{ path: 'Gardening.md' }],
  };
  const titles = [
    { path: 'Gardening.md', title: 'Gardening', aliases: [], link: 'Gardening' },
    { path: 'Pirates.md', title: 'Pirates', aliases: [], link: 'Pirates' },
    { path: '_kasten/rules/Pirate voice.md', title: 'Pirate voice', aliases: [], link: 'Pirate voice' },
  ];

  it('offers rules, tools and notes, a rule note once (as a rule), pinned notes as such', () => {
    const candidates = mentionCandidates(items, titles);
    expect(candidates.map((candidate) => `${candidate.kind}:${candidate.label}`)).toEqual([
      'rule:Pirate voice',
      'rule:Cite sources',
      'tool:forecast',
      'note:Gardening',
      'note:Pirates',
    ]);
    expect(candidates.find((candidate) => candidate.label === 'Gardening')?.active).toBe(true);
    expect(candidates.find((candidate) => candidate.kind === 'tool')?.detail).toBe('Weather (MCP)');
  });

  it('ranks names starting with the query first, then rules, tools, notes; folds case and accents', () => {
    const candidates = mentionCandidates(items, titles);
    // A rule, a tool and a note start with “pir”, another rule and note only hold it; listed notes first.
    const ranked = mentionCandidates(
      {
        ...items,
        rules: [...items.rules, rule('Aspire higher', 'manual')],
        tools: [...items.tools, { ...items.tools[0]!, name: 'mcp__ships__pirate_log' }],
      },
      [...titles, { path: 'Inspiration.md', title: 'Inspiration', aliases: [], link: 'Inspiration' }],
    ).reverse();
    expect(
      mentionSuggestions(ranked, 'pir').map((candidate) => `${candidate.kind}:${candidate.label}`),
    ).toEqual([
      'rule:Pirate voice',
      'tool:pirate_log',
      'note:Pirates',
      'rule:Aspire higher',
      'note:Inspiration',
    ]);
    expect(mentionSuggestions(candidates, 'PÎRATE V').map((candidate) => candidate.label)).toEqual([
      'Pirate voice',
    ]);
    expect(mentionSuggestions(candidates, 'weather').map((candidate) => candidate.key)).toEqual([
      'mcp__weather__forecast',
    ]);
    expect(mentionSuggestions(candidates, '', 2)).toHaveLength(2);
  });
});
