import { useEffect, useState } from 'react';
import { usePromptsStore } from './prompts-store';

/** Settings → Saved prompts: the folder whose notes `/` lists, and how many it holds. */
export function PromptsSettings() {
  const view = usePromptsStore((state) => state.view);
  const error = usePromptsStore((state) => state.error);
  useEffect(() => void usePromptsStore.getState().load(), []);
  const [draft, setDraft] = useState<string | null>(null);
  const [done, setDone] = useState(false);
  const folder = draft ?? view?.folder ?? '';
  const warned = view?.prompts.filter((prompt) => prompt.warnings.length > 0).length ?? 0;
  return (
    <section className="settings-section" aria-label="Saved prompts">
      <h3>Saved prompts</h3>
      <form
        onSubmit={(event) => {
          event.preventDefault();
          void usePromptsStore
            .getState()
            .configure(folder)
            .then((saved) => {
              setDone(saved);
              if (saved) setDraft(null);
            });
        }}
      >
        <label className="field">
          <span>Prompts folder</span>
          <input
            value={folder}
            spellCheck={false}
            data-testid="prompts-folder"
            onChange={(event) => {
              setDraft(event.target.value);
              setDone(false);
            }}
          />
        </label>
        <p className="field-note">
          Each note in it is a prompt you run with <code>/</code> at the start of a message:{' '}
          <code>name:</code> and <code>description:</code> in its frontmatter, and a text that may hold{' '}
          <code>{'{{note}}'}</code>, <code>{'{{selection}}'}</code>, <code>{'{{title}}'}</code>,{' '}
          <code>{'{{date}}'}</code> and <code>{'{{links}}'}</code>.
          {view &&
            ` ${view.prompts.length} ${view.prompts.length === 1 ? 'prompt' : 'prompts'} there` +
              (warned > 0 ? `, ${warned} with a warning (shown in the / list).` : '.')}
        </p>
        {error && (
          <p className="error" role="alert">
            {error}
          </p>
        )}
        <div className="field-row">
          <button type="submit" disabled={draft === null || draft === view?.folder}>
            Save prompts folder
          </button>
          {done && !error && <span className="muted small">Saved.</span>}
        </div>
      </form>
    </section>
  );
}
