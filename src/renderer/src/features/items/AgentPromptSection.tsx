import { useState } from 'react';
import type { AgentPromptPlacement, SessionItems } from '../../../../shared/context-items-domain';
import { useSettingsStore } from '../settings/settings-store';
import { useItemsStore } from './items-store';
import './agent-prompt.css';

export const placementNames: Record<AgentPromptPlacement, string> = {
  message: 'above my latest message',
  system: 'in place of Kasten’s system prompt',
};

function PromptEditor({ prompt, onDone }: { prompt: SessionItems['agentPrompt']; onDone: () => void }) {
  const [text, setText] = useState(prompt.text);
  const [placement, setPlacement] = useState<AgentPromptPlacement>(prompt.placement);
  const [error, setError] = useState<string | null>(null);
  const save = async () => {
    const refusal = await useItemsStore.getState().setPrompt({ text, placement });
    setError(refusal);
    if (!refusal) onDone();
  };
  return (
    <form
      className="prompt-editor"
      onSubmit={(event) => {
        event.preventDefault();
        void save();
      }}
    >
      <label className="prompt-field">
        <span className="small muted">This chat’s agent prompt</span>
        <textarea value={text} rows={5} onChange={(event) => setText(event.target.value)} />
      </label>
      <label className="prompt-field">
        <span className="small muted">Where it goes</span>
        <select
          value={placement}
          onChange={(event) => setPlacement(event.target.value as AgentPromptPlacement)}
        >
          <option value="message">{placementNames.message}</option>
          <option value="system">{placementNames.system}</option>
        </select>
      </label>
      {error && (
        <p className="item-error small" role="alert">
          {error}
        </p>
      )}
      <div className="prompt-actions">
        <button type="submit" className="primary">
          Save for this chat
        </button>
        <button type="button" onClick={onDone}>
          Cancel
        </button>
      </div>
    </form>
  );
}

/** The agent prompt in force in this chat (its own, or the vault's), and an editor for the chat's own. */
export function AgentPromptSection({ items }: { items: SessionItems }) {
  const [editing, setEditing] = useState(false);
  const pendingPrompt = useItemsStore((state) => state.pendingPrompt);
  // In a chat not started yet, its own prompt waits for the first message.
  const prompt =
    items.sessionId === null && pendingPrompt ? { ...pendingPrompt, own: true } : items.agentPrompt;
  if (editing) return <PromptEditor prompt={prompt} onDone={() => setEditing(false)} />;
  return (
    <div className="agent-prompt" data-testid="agent-prompt">
      <p className="small muted">
        {prompt.own ? 'This chat’s own prompt' : 'The vault’s prompt'}
        {prompt.text.trim() ? `, ${placementNames[prompt.placement]}:` : ': none.'}
      </p>
      {prompt.text.trim() ? (
        <blockquote className="agent-prompt-text small">{prompt.text}</blockquote>
      ) : (
        <p className="items-empty small">
          An agent prompt gives the model standing instructions (a role, a tone, what to focus on).{' '}
          <button
            type="button"
            className="link-button"
            onClick={() => useSettingsStore.getState().show(true, 'context-items')}
          >
            Set the vault’s in Settings
          </button>
          , or write one for this chat.
        </p>
      )}
      <div className="prompt-actions">
        <button type="button" className="small" onClick={() => setEditing(true)}>
          {prompt.own ? 'Edit' : 'Write one for this chat'}
        </button>
        {prompt.own && (
          <button
            type="button"
            className="small"
            onClick={() => void useItemsStore.getState().setPrompt(null)}
          >
            Use the vault’s
          </button>
        )}
      </div>
    </div>
  );
}
