import { describe, expect, it } from 'vitest';
import type { SessionItems } from '../../../src/shared/context-items-domain';
import {
  addedCount,
  noPendingItems,
  panelItems,
  sendItems,
  withPending,
} from '../../../src/renderer/src/features/items/session-items-view';

const items: SessionItems = {
  sessionId: null,
  rules: [
    {
      path: 'r/Pirate.md',
      name: 'Pirate',
      include: 'manual',
      description: null,
      tokens: 5,
      warning: null,
      active: false,
    },
    {
      path: 'r/Cite.md',
      name: 'Cite',
      include: 'always',
      description: null,
      tokens: 5,
      warning: null,
      active: true,
    },
  ],
  tools: [],
  pinned: [{ path: 'A.md', title: 'A', state: 'present', previousPath: null, tokens: 12 }],
  attachments: [],
  agentPrompt: { text: '', placement: 'message', own: false },
  rulesFolder: 'r',
  notices: [],
};

describe('items chosen before a chat starts', () => {
  it('are added and taken out by key, a note once', () => {
    let pending = withPending(noPendingItems, 'rule', 'r/Pirate.md', true);
    pending = withPending(pending, 'pinned', 'B.md', true, 'B');
    pending = withPending(pending, 'pinned', 'B.md', true, 'B');
    expect(pending).toEqual({ rules: ['r/Pirate.md'], tools: [], pinned: [{ path: 'B.md', title: 'B' }] });
    expect(withPending(pending, 'rule', 'r/Pirate.md', false).rules).toEqual([]);
  });

  it('show as active in the panel, a pinned note marked as not counted yet', () => {
    const pending = { rules: ['r/Pirate.md'], tools: [], pinned: [{ path: 'B.md', title: 'B' }] };
    const shown = panelItems(items, pending);
    expect(shown.rules.map((rule) => rule.active)).toEqual([true, true]);
    expect(shown.pinned.map((note) => [note.path, note.pending])).toEqual([
      ['A.md', false],
      ['B.md', true],
    ]);
    // The always rule is no choice of the user's: it does not count.
    expect(addedCount(shown)).toBe(3);
  });

  it('go with the first message only when there are some', () => {
    expect(sendItems(noPendingItems)).toBeUndefined();
    expect(sendItems({ rules: [], tools: ['t'], pinned: [{ path: 'B.md', title: 'B' }] })).toEqual({
      tools: ['t'],
      pinned: ['B.md'],
    });
  });
});
