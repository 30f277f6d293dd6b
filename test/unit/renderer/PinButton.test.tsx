// @vitest-environment happy-dom
import { act, cleanup, fireEvent, render, screen } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { ChatSession } from '../../../src/shared/chat-domain';
import type { SessionItems } from '../../../src/shared/context-items-domain';
import type { KastenApi } from '../../../src/shared/kasten-api';

/** The main process as the pin button reaches it: `items:set` answers with the chat's items, or refuses. */
const setItem = vi.fn<(input: { sessionId: string; key: string; on: boolean }) => Promise<SessionItems>>();
window.kasten = { items: { set: setItem } } as unknown as KastenApi;

const { PinButton } = await import('../../../src/renderer/src/features/items/PinButton');
const { useItemsStore } = await import('../../../src/renderer/src/features/items/items-store');
const { useChatStore } = await import('../../../src/renderer/src/features/chat/chat-store');
const { noPendingItems } = await import('../../../src/renderer/src/features/items/session-items-view');

function itemsWith(pinned: string[]): SessionItems {
  return {
    sessionId: 'chat-1',
    rules: [],
    tools: [],
    pinned: pinned.map((path) => ({ path, title: path, state: 'present', previousPath: null, tokens: 10 })),
    attachments: [],
    agentPrompt: { text: '', placement: 'system', own: false },
    rulesFolder: 'Rules',
    notices: [],
  };
}

const openChat = () => useChatStore.setState({ session: { id: 'chat-1' } as ChatSession });

beforeEach(() => {
  setItem.mockReset();
  useChatStore.setState({ session: null });
  useItemsStore.setState({ items: null, pending: noPendingItems, error: null });
});
afterEach(cleanup);

describe('PinButton', () => {
  it('is named "Pin … to this chat" until clicked, then "Unpin … from this chat", in a chat not started yet', async () => {
    render(<PinButton path="Ideas/Garden.md" title="Garden" />);
    const button = screen.getByRole('button', { name: 'Pin “Garden” to this chat' });
    expect(button.getAttribute('aria-pressed')).toBe('false');

    await act(async () => fireEvent.click(button));

    expect(screen.getByRole('button', { name: 'Unpin “Garden” from this chat' })).toBe(button);
    expect(button.getAttribute('aria-pressed')).toBe('true');
  });

  it('in an open chat asks main to unpin a pinned note and is named "Pin …" again once main answers', async () => {
    openChat();
    useItemsStore.setState({ items: itemsWith(['Ideas/Garden.md']) });
    setItem.mockResolvedValue(itemsWith([]));
    render(<PinButton path="Ideas/Garden.md" title="Garden" />);

    await act(async () =>
      fireEvent.click(screen.getByRole('button', { name: 'Unpin “Garden” from this chat' })),
    );

    expect(setItem).toHaveBeenCalledWith(
      expect.objectContaining({ sessionId: 'chat-1', key: 'Ideas/Garden.md', on: false }),
    );
    expect(screen.getByRole('button', { name: 'Pin “Garden” to this chat' })).toBeTruthy();
  });

  it("shows main's refusal beside it and keeps offering to pin", async () => {
    openChat();
    useItemsStore.setState({ items: itemsWith([]) });
    setItem.mockRejectedValue(new Error('That note is no longer in the vault.'));
    render(<PinButton path="Gone.md" title="Gone" />);

    await act(async () => fireEvent.click(screen.getByRole('button', { name: 'Pin “Gone” to this chat' })));

    expect(screen.getByRole('alert').textContent).toBe('That note is no longer in the vault.');
    expect(screen.getByRole('button', { name: 'Pin “Gone” to this chat' })).toBeTruthy();
  });
});
