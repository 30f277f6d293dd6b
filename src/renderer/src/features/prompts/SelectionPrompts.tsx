import { useEffect } from 'react';
import type { NoteSelection } from '../../../../shared/selection-domain';
import { useChatStore } from '../chat/chat-store';
import { usePromptsStore } from './prompts-store';

/** The most saved prompts the selection bar shows; the rest are a `/` away in the composer. */
const shownPrompts = 4;

/**
 * The saved prompts that use `{{selection}}`, as buttons in the note viewer's selection bar: one runs
 * its prompt at once on the selected passage, with the note it is in as the open note.
 */
export function SelectionPrompts({ selection }: { selection: NoteSelection }) {
  const view = usePromptsStore((state) => state.view);
  useEffect(() => {
    if (usePromptsStore.getState().view === null) void usePromptsStore.getState().load();
  }, []);
  const prompts = (view?.prompts ?? []).filter((prompt) => prompt.usable && prompt.usesSelection);
  return prompts.slice(0, shownPrompts).map((prompt) => (
    <button
      key={prompt.path}
      type="button"
      className="small"
      data-testid="selection-prompt"
      title={prompt.description ?? `Run /${prompt.name} on this passage`}
      onClick={() => {
        document.getSelection()?.removeAllRanges();
        void useChatStore.getState().send(`/${prompt.name}`, {
          saved: { name: prompt.name, note: selection.path, selection: selection.text },
        });
      }}
    >
      /{prompt.name}
    </button>
  ));
}
