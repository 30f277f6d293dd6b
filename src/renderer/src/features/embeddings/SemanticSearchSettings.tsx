import { useEffect, useRef, useState } from 'react';
import type { EmbeddingSettings, EmbeddingStatus } from '../../../../shared/embedding-domain';
import { KeyQuestion } from '../settings/KeyConfirmation';
import { useSettingsStore } from '../settings/settings-store';
import { useEmbeddingStore } from './embedding-store';

type Provider = EmbeddingSettings['provider'];

/** Ollama on this machine, through either of its APIs: switching the API switches this URL with it. */
const localUrls: Record<Provider, string> = {
  ollama: 'http://127.0.0.1:11434',
  'openai-compatible': 'http://127.0.0.1:11434/v1',
};

/** Settings → Semantic search: the embedding model, how far the vault's vectors are, Embed now. */
export function SemanticSearchSettings() {
  const status = useEmbeddingStore((state) => state.status);
  const { load } = useEmbeddingStore.getState();
  useEffect(() => void load(), [load]);
  // The draft starts from the settings as first loaded and stays the user's while the dialog is open.
  return status ? <SemanticSearchForm saved={status.settings} /> : null;
}

function SemanticSearchForm({ saved }: { saved: EmbeddingSettings }) {
  const status = useEmbeddingStore((state) => state.status);
  const progress = useEmbeddingStore((state) => state.progress);
  const error = useEmbeddingStore((state) => state.error);
  const pending = useEmbeddingStore((state) => state.keyConfirmation);
  const { configure, run, dismissKeyConfirmation } = useEmbeddingStore.getState();
  const [draft, setDraft] = useState<EmbeddingSettings>(saved);
  const [done, setDone] = useState(false);
  const section = useRef<HTMLElement>(null);
  useEffect(() => {
    // Opened from a hint about semantic search: shown at once, below the chat model's settings.
    if (useSettingsStore.getState().section === 'semantic-search') {
      section.current?.scrollIntoView({ block: 'start' });
    }
  }, []);
  if (!status) return null;

  const change = (patch: Partial<EmbeddingSettings>) => {
    setDraft({ ...draft, ...patch });
    setDone(false);
    // A question about the old draft's server must not be answered for the new one.
    dismissKeyConfirmation();
  };
  const dirty = JSON.stringify(draft) !== JSON.stringify(status.settings);
  const running = progress?.state === 'running' || progress?.state === 'paused';

  return (
    <section className="settings-section" aria-label="Semantic search" ref={section}>
      <h3>Semantic search</h3>
      <p className="field-note">
        An embedding model turns every passage of your notes into a vector, so search and related notes find
        notes by meaning, not only by their words. It may run on another server than the chat model.
      </p>
      <form
        onSubmit={(event) => {
          event.preventDefault();
          void configure(draft).then(setDone);
        }}
      >
        <label className="checkbox">
          <input
            type="checkbox"
            checked={draft.enabled}
            onChange={(event) => change({ enabled: event.target.checked })}
          />
          Search by meaning (semantic search)
        </label>
        <label className="field">
          <span>Embedding API</span>
          <select
            value={draft.provider}
            onChange={(event) => {
              const provider = event.target.value as Provider;
              const local = draft.baseUrl === localUrls[draft.provider];
              change({ provider, ...(local ? { baseUrl: localUrls[provider] } : {}) });
            }}
          >
            <option value="ollama">Ollama (native)</option>
            <option value="openai-compatible">OpenAI-compatible</option>
          </select>
        </label>
        <label className="field">
          <span>Server URL</span>
          <input
            value={draft.baseUrl}
            spellCheck={false}
            placeholder={localUrls[draft.provider]}
            onChange={(event) => change({ baseUrl: event.target.value.trim() })}
          />
        </label>
        <label className="field">
          <span>Embedding model</span>
          <input
            value={draft.model}
            spellCheck={false}
            placeholder="e.g. nomic-embed-text"
            onChange={(event) => change({ model: event.target.value })}
          />
        </label>
        <label className="field">
          <span>API key environment variable</span>
          <input
            value={draft.apiKeyEnv ?? ''}
            spellCheck={false}
            placeholder="optional, e.g. OPENAI_API_KEY"
            onChange={(event) => change({ apiKeyEnv: event.target.value.trim() || null })}
          />
        </label>
        {pending && (
          <KeyQuestion
            message={pending.message}
            variable={pending.settings.apiKeyEnv}
            onConfirm={() => void configure(pending.settings, true).then(setDone)}
            onCancel={dismissKeyConfirmation}
          />
        )}
        {error && (
          <p className="error" role="alert">
            {error}
          </p>
        )}
        <div className="field-row">
          <button type="submit" disabled={!dirty}>
            Save semantic search
          </button>
          {done && !dirty && <span className="muted small">Saved.</span>}
        </div>
      </form>
      <VectorsLine status={status} />
      {status.notice && <p className="field-note">{status.notice}</p>}
      <div className="field-row">
        <button type="button" disabled={!status.settings.enabled || running} onClick={() => void run()}>
          {running ? 'Embedding…' : 'Embed now'}
        </button>
      </div>
    </section>
  );
}

/** How many passages have vectors and from which model, and why search is lexical when it is. */
function VectorsLine({ status }: { status: EmbeddingStatus }) {
  const { embedded, pending, vectorsFrom, unavailable } = status;
  const waiting = pending > 0 ? `; ${pending.toLocaleString()} waiting` : '';
  return (
    <p className="field-note" data-testid="embedding-status">
      {embedded > 0 && vectorsFrom
        ? `${embedded.toLocaleString()} ${embedded === 1 ? 'passage' : 'passages'} embedded from ${vectorsFrom}${waiting}.`
        : `No passages embedded yet${waiting}.`}
      {unavailable && ` Search is lexical only, because ${unavailable}.`}
    </p>
  );
}
