import { useEffect, useRef, useState } from 'react';
import type {
  AgentPromptPlacement,
  ContextItemSettings,
  ItemInclude,
} from '../../../../shared/context-items-domain';
import { IncludeOptions } from '../../components/IncludeOptions';
import { useSettingsStore } from '../settings/settings-store';
import { placementNames } from './AgentPromptSection';
import { useItemSettingsStore } from './item-settings-store';

/** Settings → Context items: where rules live, the vault's agent prompt, when each vault tool is offered. */
export function ContextItemsSettings() {
  const saved = useItemSettingsStore((state) => state.settings);
  const { load } = useItemSettingsStore.getState();
  useEffect(() => void load(), [load]);
  // The draft starts from the settings as first loaded and stays the user's while the dialog is open.
  return saved ? <ContextItemsForm saved={saved} /> : null;
}

function ContextItemsForm({ saved }: { saved: ContextItemSettings }) {
  const tools = useItemSettingsStore((state) => state.vaultTools);
  const error = useItemSettingsStore((state) => state.error);
  const { save } = useItemSettingsStore.getState();
  const [draft, setDraft] = useState<ContextItemSettings>(saved);
  const [done, setDone] = useState(false);
  const section = useRef<HTMLElement>(null);
  useEffect(() => {
    if (useSettingsStore.getState().section === 'context-items')
      section.current?.scrollIntoView({ block: 'start' });
  }, []);
  const change = (patch: Partial<ContextItemSettings>) => {
    setDraft({ ...draft, ...patch });
    setDone(false);
  };
  const dirty = JSON.stringify(draft) !== JSON.stringify(saved);

  return (
    <section className="settings-section" aria-label="Context items" ref={section}>
      <h3>Context items</h3>
      <p className="field-note">
        Rules, pinned notes and tools go into requests by their include mode: <em>always</em> (every request),{' '}
        <em>manual</em> (the chats you add them to, in the Context tab or with @ in the message box) or{' '}
        <em>agent</em> (when a question is about what they describe).
      </p>
      <form
        onSubmit={(event) => {
          event.preventDefault();
          void save(draft).then(setDone);
        }}
      >
        <label className="field">
          <span>Rules folder</span>
          <input
            value={draft.rulesFolder}
            spellCheck={false}
            onChange={(event) => change({ rulesFolder: event.target.value })}
          />
        </label>
        <p className="field-note">
          Each note in it is a rule, with <code>include: always|manual|agent</code> and, for agent rules, a{' '}
          <code>description:</code> in its frontmatter.
        </p>
        <label className="field">
          <span>Agent prompt</span>
          <textarea
            rows={4}
            value={draft.agentPrompt}
            placeholder="Standing instructions for every chat of this vault: a role, a tone, what to focus on."
            onChange={(event) => change({ agentPrompt: event.target.value })}
          />
        </label>
        <label className="field">
          <span>It goes</span>
          <select
            value={draft.agentPromptPlacement}
            onChange={(event) => change({ agentPromptPlacement: event.target.value as AgentPromptPlacement })}
          >
            <option value="message">{placementNames.message}</option>
            <option value="system">{placementNames.system}</option>
          </select>
        </label>
        {tools.length > 0 && (
          <fieldset className="field-group">
            <legend>The vault’s tools are offered</legend>
            <ul className="tool-modes">
              {tools.map((tool) => (
                <li key={tool.name}>
                  <span className="tool-name" title={tool.description}>
                    {tool.name}
                  </span>
                  <select
                    aria-label={`When ${tool.name} is offered`}
                    value={draft.tools[tool.name] ?? 'always'}
                    onChange={(event) =>
                      change({ tools: { ...draft.tools, [tool.name]: event.target.value as ItemInclude } })
                    }
                  >
                    <IncludeOptions />
                  </select>
                </li>
              ))}
            </ul>
          </fieldset>
        )}
        {error && (
          <p className="error" role="alert">
            {error}
          </p>
        )}
        <div className="field-row">
          <button type="submit" disabled={!dirty} data-testid="items-settings-save">
            Save context items
          </button>
          {done && !error && <span className="muted small">Saved.</span>}
        </div>
      </form>
    </section>
  );
}
