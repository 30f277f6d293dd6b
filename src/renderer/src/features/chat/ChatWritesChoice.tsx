import { useEffect, useState } from 'react';
import type { ChatWriteChoice } from '../../../../shared/chat-writes-contract';
import { describeError, kasten } from '../../api';
import { useChatStore } from './chat-store';
import { useWriteSettingsStore } from './write-settings-store';

/**
 * The chat's own choice about writes, beside the vault's switch: ask before each change (the default),
 * or write at once and show what was done, with Undo. Shown only while the vault allows writes.
 */
export function ChatWritesChoice() {
  const sessionId = useChatStore((state) => state.session?.id ?? null);
  const vaultEnabled = useWriteSettingsStore((state) => state.settings?.enabled ?? false);
  const newChat = useWriteSettingsStore((state) => state.newChat);
  const [choice, setChoice] = useState<{ sessionId: string; choice: ChatWriteChoice } | null>(null);
  const [error, setError] = useState<string | null>(null);
  useEffect(() => {
    if (!sessionId || !vaultEnabled) return;
    let current = true;
    kasten.writes
      .chat({ sessionId })
      .then((writes) => current && setChoice(writes))
      .catch((failure: unknown) => current && setError(describeError(failure)));
    return () => {
      current = false;
    };
  }, [sessionId, vaultEnabled]);
  if (!vaultEnabled) return null;
  const known = choice !== null && choice.sessionId === sessionId;
  const change = async (next: ChatWriteChoice) => {
    // A chat not started yet keeps the choice until its first message takes it along.
    if (!sessionId) return useWriteSettingsStore.getState().setNewChat(next);
    setChoice({ sessionId, choice: next });
    try {
      setChoice(await kasten.writes.setChat({ sessionId, choice: next }));
      setError(null);
    } catch (failure) {
      setError(describeError(failure));
      setChoice(choice);
    }
  };
  return (
    <select
      className="chat-writes small"
      data-testid="chat-writes"
      aria-label="Writes in this chat"
      title={
        error ?? 'Ask before each change, or let this chat write at once (each change is shown, with Undo).'
      }
      value={sessionId ? (known ? choice.choice : 'ask') : newChat}
      disabled={sessionId !== null && !known}
      onChange={(event) => void change(event.target.value === 'allow' ? 'allow' : 'ask')}
    >
      <option value="ask">Ask every time</option>
      <option value="allow">Allow for this chat</option>
    </select>
  );
}
